import Foundation
import Testing
@testable import Scheduling

@Suite struct TimeRangeTests {
    @Test func emptyAndReversedRangesAreRefused() throws {
        let t = utc("2026-03-10 10:00")
        #expect(throws: SchedulingError.emptyRange(start: t, end: t)) { try TimeRange(start: t, end: t) }
        let earlier = t.addingTimeInterval(-60)
        #expect(throws: SchedulingError.emptyRange(start: t, end: earlier)) { try TimeRange(start: t, end: earlier) }
        #expect(throws: SchedulingError.self) { try TimeRange(start: t, duration: 0) }
        // Not through #expect(throws:): describing a NaN Date traps in Foundation.
        do {
            _ = try TimeRange(start: Date(timeIntervalSince1970: .nan), duration: 60)
            Issue.record("a NaN start was accepted")
        } catch {
            #expect(error.description == "end: an invalid instant must be after start an invalid instant")
        }
        let error = SchedulingError.emptyRange(start: t, end: t)
        #expect(error.field == "end")
        #expect(error.description == "end: 2026-03-10T10:00:00Z must be after start 2026-03-10T10:00:00Z")
    }

    @Test func halfOpenOverlapRules() throws {
        let nine = try span("2026-03-10 09:00", "2026-03-10 10:00")
        let ten = try span("2026-03-10 10:00", "2026-03-10 11:00")
        let inside = try span("2026-03-10 09:15", "2026-03-10 09:45")
        #expect(!nine.overlaps(ten) && !ten.overlaps(nine))
        #expect(nine.intersection(ten) == nil)
        #expect(nine.overlaps(inside) && inside.overlaps(nine))
        #expect(nine.intersection(inside) == inside)
        #expect(nine.overlaps(nine) && nine.intersection(nine) == nine)
        #expect(nine.contains(nine.start) && !nine.contains(nine.end))
        #expect(nine.contains(inside) && !inside.contains(nine))
        #expect(nine.duration == 3600)
        #expect(nine.shifted(by: 3600) == ten)
    }

    @Test func aDaylightSavingDayIsTwentyThreeHoursOfInstants() throws {
        // Berlin springs forward on 2026-03-29: 02:00 CET becomes 03:00 CEST.
        let day = try span("2026-03-29 00:00", "2026-03-30 00:00")
        #expect(day.duration == 23 * 3600)
        let night = try span("2026-03-29 01:00", "2026-03-29 04:00")
        #expect(night.duration == 2 * 3600)
        #expect(night.start == utc("2026-03-29 00:00") && night.end == utc("2026-03-29 02:00"))
        // Falls back on 2026-10-25: 25 hours.
        #expect(try span("2026-10-25 00:00", "2026-10-26 00:00").duration == 25 * 3600)
    }
}

@Suite struct BusyPolicyTests {
    @Test(arguments: [
        // transparent, cancelled, all-day → busy under the standard policy
        (false, false, false, true),
        (true, false, false, false),
        (false, true, false, false),
        (false, false, true, false),
        (true, false, true, false),
    ])
    func standardPolicy(transparent: Bool, cancelled: Bool, allDay: Bool, busy: Bool) {
        let traits = EventTraits(isTransparent: transparent, isCancelled: cancelled, isAllDay: allDay)
        #expect(BusyPolicy.standard.isBusy(traits) == busy)
    }

    @Test func eachOverrideCoversOnlyItsTrait() throws {
        let allDay = BusyPolicy(allDayIsBusy: true)
        #expect(allDay.isBusy(EventTraits(isAllDay: true)))
        #expect(!allDay.isBusy(EventTraits(isTransparent: true, isAllDay: true)))
        #expect(BusyPolicy(transparentIsBusy: true, allDayIsBusy: true).isBusy(EventTraits(isTransparent: true, isAllDay: true)))
        #expect(BusyPolicy(transparentIsBusy: true).isBusy(EventTraits(isTransparent: true)))
        #expect(BusyPolicy(cancelledIsBusy: true).isBusy(EventTraits(isCancelled: true)))
        #expect(!BusyPolicy(cancelledIsBusy: true).isBusy(EventTraits(isTransparent: true)))

        let range = try span("2026-03-10 09:00", "2026-03-10 10:00")
        #expect(BusyPolicy.standard.block(eventID: "a", title: "A", range: range, traits: EventTraits(isCancelled: true)) == nil)
        #expect(BusyPolicy.standard.block(eventID: "a", title: "A", range: range, traits: EventTraits())
            == BusyBlock(range, .event(id: "a", title: "A")))
    }
}

@Suite struct BusyTimeTests {
    @Test func sortsMergesAndKeepsOnlyTheWindow() throws {
        let window = try span("2026-03-10 00:00", "2026-03-11 00:00")
        let blocks = try [
            event("late", "2026-03-10 16:00", "2026-03-10 17:00"),
            event("b", "2026-03-10 10:00", "2026-03-10 11:00"),
            event("a", "2026-03-10 09:00", "2026-03-10 10:00"),
            event("inside-b", "2026-03-10 10:15", "2026-03-10 10:45"),
            event("yesterday", "2026-03-09 09:00", "2026-03-09 10:00"),
            event("overnight", "2026-03-09 23:00", "2026-03-10 01:00"),
        ]
        let busy = BusyTime(blocks, window: window)
        #expect(busy.blocks.map(\.referenceID) == ["overnight", "a", "b", "inside-b", "late"])
        #expect(busy.blocks[0].range == blocks[5].range)  // unclipped
        #expect(busy.merged == [
            try span("2026-03-09 23:00", "2026-03-10 01:00"),
            try span("2026-03-10 09:00", "2026-03-10 11:00"),
            try span("2026-03-10 16:00", "2026-03-10 17:00"),
        ])
    }

    @Test func overlapsAreExactPerBlock() throws {
        let busy = BusyTime(try [
            event("long", "2026-03-10 08:00", "2026-03-10 18:00"),
            event("a", "2026-03-10 09:00", "2026-03-10 10:00"),
            event("b", "2026-03-10 10:30", "2026-03-10 12:00"),
            event("c", "2026-03-10 13:00", "2026-03-10 14:00"),
            prayer(.dhuhr, "2026-03-10 12:30"),
        ])
        let query = try span("2026-03-10 09:30", "2026-03-10 12:40")
        let overlaps = busy.overlaps(with: query)
        #expect(overlaps.map(\.block.referenceID) == ["long", "a", "b", nil])
        #expect(overlaps.map(\.overlap) == [
            query,
            try span("2026-03-10 09:30", "2026-03-10 10:00"),
            try span("2026-03-10 10:30", "2026-03-10 12:00"),
            try span("2026-03-10 12:30", "2026-03-10 12:40"),
        ])
        #expect(overlaps.map(\.isPrayer) == [false, false, false, true])
        #expect(busy.overlaps(with: query, excluding: "long").count == 3)
    }

    @Test func freeRangesAndIsFree() throws {
        let busy = BusyTime(try [
            event("a", "2026-03-10 09:00", "2026-03-10 10:00"),
            event("b", "2026-03-10 10:00", "2026-03-10 11:00"),
            event("c", "2026-03-10 13:00", "2026-03-10 14:00"),
        ])
        let morning = try span("2026-03-10 08:00", "2026-03-10 15:00")
        #expect(busy.freeRanges(in: morning) == [
            try span("2026-03-10 08:00", "2026-03-10 09:00"),
            try span("2026-03-10 11:00", "2026-03-10 13:00"),
            try span("2026-03-10 14:00", "2026-03-10 15:00"),
        ])
        #expect(busy.freeRanges(in: morning, excluding: "b") == [
            try span("2026-03-10 08:00", "2026-03-10 09:00"),
            try span("2026-03-10 10:00", "2026-03-10 13:00"),
            try span("2026-03-10 14:00", "2026-03-10 15:00"),
        ])
        #expect(busy.isFree(try span("2026-03-10 11:00", "2026-03-10 13:00")))
        #expect(!busy.isFree(try span("2026-03-10 10:59", "2026-03-10 13:00")))
        #expect(busy.isFree(try span("2026-03-10 10:00", "2026-03-10 11:00"), excluding: "b"))
        #expect(busy.freeRanges(in: try span("2026-03-10 09:10", "2026-03-10 10:50")).isEmpty)
        #expect(BusyTime([]).freeRanges(in: morning) == [morning])
    }

    /// The indexed answers equal a plain scan, for many blocks of mixed lengths (long ones too,
    /// which break the order of ends).
    @Test func indexedQueriesMatchAScanOverManyBlocks() throws {
        var generator = SplitMix(seed: 7)
        let origin = utc("2026-03-01 00:00")
        var blocks: [BusyBlock] = []
        for index in 0..<1500 {
            let start = origin.addingTimeInterval(Double(generator.next() % (30 * 96)) * 900)
            let length = index % 100 == 0 ? Double(1 + generator.next() % 72) * 3600 : Double(1 + generator.next() % 12) * 900
            blocks.append(BusyBlock(try TimeRange(start: start, duration: length), .event(id: "e\(index % 700)", title: "")))
        }
        let busy = BusyTime(blocks)
        for _ in 0..<400 {
            let start = origin.addingTimeInterval(Double(generator.next() % (31 * 96)) * 900 - 86_400)
            let query = try TimeRange(start: start, duration: Double(1 + generator.next() % 16) * 900)
            let excluded = generator.next() % 2 == 0 ? "e\(generator.next() % 700)" : nil
            let scan = busy.blocks.filter { $0.range.overlaps(query) && (excluded == nil || $0.referenceID != excluded) }
            #expect(busy.blocks(overlapping: query, excluding: excluded) == scan)
            #expect(busy.isFree(query, excluding: excluded) == scan.isEmpty)
            let free = busy.freeRanges(in: query, excluding: excluded)
            for gap in free { #expect(scan.allSatisfy { !$0.range.overlaps(gap) }) }
            let covered = Availability.union(scan.compactMap { $0.range.intersection(query) })
            #expect(free.reduce(0) { $0 + $1.duration } + covered.reduce(0) { $0 + $1.duration } == query.duration)
        }
    }
}

/// A tiny deterministic generator, so example tests never depend on the system's randomness.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
