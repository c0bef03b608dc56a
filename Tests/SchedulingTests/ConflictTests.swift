import Foundation
import Testing
@testable import Scheduling

@Suite struct ConflictTests {
    let busy: BusyTime

    init() throws {
        busy = BusyTime(try [
            event("standup", "2026-03-10 09:00", "2026-03-10 09:30"),
            event("review", "2026-03-10 11:00", "2026-03-10 12:00"),
            event("lunch", "2026-03-10 13:00", "2026-03-10 14:00"),
            event("call", "2026-03-10 13:30", "2026-03-10 14:30"),
        ] + marchPrayers(on: "2026-03-10"))
    }

    @Test("a batch checked in one sweep gets the same conflicts as each block checked alone")
    func batchSweepMatchesOneByOne() throws {
        // A fixed pseudo-random week: short and day-long blocks, repeated references (an event
        // never runs into itself), touching ends, and the batch's own blocks among the busy ones.
        var seed: UInt64 = 2026
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let monday = Date(timeIntervalSince1970: 1_773_000_000)
        func block(_ id: Int) throws -> BusyBlock {
            let start = monday.addingTimeInterval(TimeInterval(next(7 * 96) * 900))
            let minutes = next(10) == 0 ? 24 * 60 : 15 * (1 + next(8))
            let range = try TimeRange(start: start, duration: TimeInterval(minutes * 60))
            return next(12) == 0 ? BusyBlock(range, .prayer(.asr)) : BusyBlock(range, .event(id: "e\(id % 150)", title: "Event \(id)"))
        }
        let busyBlocks = try (0..<400).map(block)
        let batch = try (0..<200).map { try block(1000 + $0) } + busyBlocks.prefix(50)
        let busy = BusyTime(busyBlocks)
        let swept = busy.conflicts(for: batch)
        #expect(swept == batch.map { busy.conflict(for: $0) })
        #expect(swept.compactMap { $0 }.count > 50, "the week is dense enough to test something")
        #expect(busy.conflicts(for: []).isEmpty)
    }

    @Test func touchingIsNotAConflict() throws {
        #expect(busy.conflict(for: try event("new", "2026-03-10 09:30", "2026-03-10 11:00")) == nil)
        #expect(busy.conflict(for: try event("new", "2026-03-10 08:00", "2026-03-10 09:00")) == nil)
        // Between Asr (15:30–15:50) and Maghrib (18:30): ends exactly where Maghrib starts.
        #expect(busy.conflict(for: try event("new", "2026-03-10 15:50", "2026-03-10 18:30")) == nil)
    }

    @Test func containmentBothWays() throws {
        let inside = try event("new", "2026-03-10 11:15", "2026-03-10 11:45")
        let conflict = try #require(busy.conflict(for: inside))
        #expect(conflict.overlaps == [BusyOverlap(block: try event("review", "2026-03-10 11:00", "2026-03-10 12:00"), overlap: inside.range)])

        let around = try event("new", "2026-03-10 10:30", "2026-03-10 12:15")
        let wider = try #require(busy.conflict(for: around))
        #expect(wider.overlaps.map(\.overlap) == [try span("2026-03-10 11:00", "2026-03-10 12:00")])
        #expect(wider.overlappedTime == 3600)
    }

    @Test func identicalRangesConflictWhenTheReferenceDiffers() throws {
        let conflict = try #require(busy.conflict(for: try event("twin", "2026-03-10 11:00", "2026-03-10 12:00")))
        #expect(conflict.overlaps.count == 1)
        #expect(conflict.overlaps[0].overlap == (try span("2026-03-10 11:00", "2026-03-10 12:00")))
        #expect(conflict.overlaps[0].block.referenceID == "review")
    }

    @Test func anEditedEventDoesNotConflictWithItsOldSelf() throws {
        // "review" (11:00–12:00) moved half an hour later: its old place is still in the busy time.
        #expect(busy.conflict(for: try event("review", "2026-03-10 11:30", "2026-03-10 12:20")) == nil)
        // Moved further, it runs into Dhuhr (12:30–12:50) and only into Dhuhr.
        let conflict = try #require(busy.conflict(for: try event("review", "2026-03-10 11:30", "2026-03-10 12:40")))
        #expect(conflict.overlaps.map(\.block.kind) == [.prayer(.dhuhr)])
        #expect(conflict.overlaps[0].overlap == (try span("2026-03-10 12:30", "2026-03-10 12:40")))
        #expect(conflict.overlapsPrayer)
    }

    @Test func severalBlocksWithExactOverlaps() throws {
        // "review" ends at 12:00 where the workshop starts: touching, so not listed.
        let conflict = try #require(busy.conflict(for: try event("workshop", "2026-03-10 12:00", "2026-03-10 14:15")))
        #expect(conflict.overlaps.map(\.block.referenceID) == [nil, "lunch", "call"])
        #expect(conflict.overlaps.map(\.overlap) == [
            try span("2026-03-10 12:30", "2026-03-10 12:50"),
            try span("2026-03-10 13:00", "2026-03-10 14:00"),
            try span("2026-03-10 13:30", "2026-03-10 14:15"),
        ])
        #expect(conflict.overlapsPrayer)
        #expect(conflict.prayerOverlaps.map(\.block.kind) == [.prayer(.dhuhr)])
        // 12:30–12:50 and 13:00–14:15, the double-booked half hour counted once.
        #expect(conflict.overlappedTime == 20 * 60 + 75 * 60)
        #expect(busy.conflict(for: try event("quiet", "2026-03-10 16:00", "2026-03-10 17:00")) == nil)
    }

    @Test func zeroLengthIsRefusedBeforeAnyCheck() {
        let t = at("2026-03-10 11:30")
        #expect(throws: SchedulingError.emptyRange(start: t, end: t)) { try TimeRange(start: t, end: t) }
    }

    @Test func daylightSavingDaysCompareInstants() throws {
        // Berlin, 2026-03-29: 02:00 CET jumps to 03:00 CEST.
        let spring = BusyTime(try [
            event("early", "2026-03-29 01:00", "2026-03-29 03:30"),  // 00:00Z–01:30Z, 1.5 real hours
        ])
        // 03:00 CEST is 01:00Z, inside "early".
        let conflict = try #require(spring.conflict(for: try event("new", "2026-03-29 03:00", "2026-03-29 04:00")))
        #expect(conflict.overlaps[0].overlap == (try TimeRange(start: utc("2026-03-29 01:00"), end: utc("2026-03-29 01:30"))))
        // An event from the day's start to 03:00 on the clock is 2 hours (00:00 CET … 03:00 CEST).
        #expect(try span("2026-03-29 00:00", "2026-03-29 03:00").duration == 2 * 3600)
        // Touching across the gap: ends at 03:00 CEST, the next starts at 03:00 CEST.
        #expect(BusyTime([try event("x", "2026-03-29 00:00", "2026-03-29 03:00")])
            .conflict(for: try event("y", "2026-03-29 03:00", "2026-03-29 05:00")) == nil)

        // 2026-10-25: 03:00 CEST falls back to 02:00 CET, so the clock reads 02:30 twice. An event
        // over the first 02:00–03:00 (CEST, 00:00Z–01:00Z) overlaps the first 02:30 (00:30Z) and
        // not the second (CET, 01:30Z).
        let autumn = BusyTime([BusyBlock(try TimeRange(start: utc("2026-10-25 00:00"), end: utc("2026-10-25 01:00")), .event(id: "first-hour", title: ""))])
        let secondHalfPastTwo = try TimeRange(start: utc("2026-10-25 01:30"), end: utc("2026-10-25 02:30"))
        #expect(autumn.conflict(for: BusyBlock(secondHalfPastTwo, .event(id: "z", title: ""))) == nil)
        let firstHalfPastTwo = try TimeRange(start: utc("2026-10-25 00:30"), end: utc("2026-10-25 01:30"))
        let overlap = try #require(autumn.conflict(for: BusyBlock(firstHalfPastTwo, .event(id: "z", title: ""))))
        #expect(overlap.overlaps[0].overlap == (try TimeRange(start: utc("2026-10-25 00:30"), end: utc("2026-10-25 01:00"))))
    }

    @Test func allDayEventsAcrossTimeZonesAreInstants() throws {
        // An all-day event on 2026-03-10 in Riyadh (UTC+3), counted busy by its calendar's override,
        // resolved by the caller to [2026-03-09 21:00Z, 2026-03-10 21:00Z).
        let policy = BusyPolicy(allDayIsBusy: true)
        let allDay = try #require(policy.block(
            eventID: "national-day", title: "Holiday",
            range: try span("2026-03-10 00:00", "2026-03-11 00:00", Zones.riyadh), traits: EventTraits(isAllDay: true)))
        #expect(allDay.range.start == utc("2026-03-09 21:00"))
        let busy = BusyTime([allDay])
        // 22:00 in Berlin on the 10th is 21:00Z: the Riyadh day is over.
        #expect(busy.conflict(for: try event("evening", "2026-03-10 22:00", "2026-03-10 23:00")) == nil)
        // 21:30 in Berlin on the 9th is 20:30Z: not yet begun. 22:30 on the 9th (21:30Z) has.
        #expect(busy.conflict(for: try event("x", "2026-03-09 21:00", "2026-03-09 22:00")) == nil)
        #expect(busy.conflict(for: try event("x", "2026-03-09 22:00", "2026-03-09 22:30")) != nil)
    }

    @Test func recurringOccurrencesAndOverriddenInstances() throws {
        // A weekly series expanded by the caller: every occurrence carries the series' UID, and an
        // overridden instance (moved to 15:00 on the 17th) arrives as its own interval.
        let series = try [
            event("weekly", "2026-03-03 10:00", "2026-03-03 11:00"),
            event("weekly", "2026-03-10 10:00", "2026-03-10 11:00"),
            event("weekly", "2026-03-17 15:00", "2026-03-17 16:00"),
            event("weekly", "2026-03-24 10:00", "2026-03-24 11:00"),
        ]
        let busy = BusyTime(series)
        #expect(busy.conflict(for: try event("single", "2026-03-17 10:00", "2026-03-17 11:00")) == nil)
        let conflict = try #require(busy.conflict(for: try event("single", "2026-03-17 15:30", "2026-03-17 16:30")))
        #expect(conflict.overlaps.map(\.overlap) == [try span("2026-03-17 15:30", "2026-03-17 16:00")])
        // Moving an occurrence of the series onto another: same reference, so no self-conflict.
        #expect(busy.conflict(for: try event("weekly", "2026-03-24 10:30", "2026-03-24 11:30")) == nil)
    }
}
