import Foundation
import ICalendar
@testable import JadwalCore
import Testing

/// Random events and to-dos around daylight-saving changes, with random alarms, asked about random
/// windows. Whatever they are, a window's firings lie in it, come in order under unique keys, and
/// are exactly the firings a much wider window finds there — so the expansion was widened enough.
@Suite("Reminder schedule properties")
struct ReminderSchedulePropertyTests {
    /// A fixed-seed generator: every run checks the same cases, and a failure names its seed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    struct Case: CustomStringConvertible {
        var body: String
        var zone: String
        var from: Date
        var split: Date
        var to: Date
        var description: String { "zone \(zone), [\(iso(from)), \(iso(split)), \(iso(to)))\n\(body)" }
    }

    /// A DATE-TIME value for wall time `t` (seconds as if UTC), with a trailing Z when `utc`.
    static func stamp(_ t: Int64, utc: Bool) -> String {
        let l = LocalDateTime(secondsSinceEpoch: t)
        let text = String(format: "%04d%02d%02dT%02d%02d%02d", l.date.year, l.date.month, l.date.day, l.hour, l.minute, l.second)
        return utc ? text + "Z" : text
    }

    static func makeCase(_ random: inout SplitMix) -> Case {
        let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "UTC", "Asia/Riyadh"]
        let zone = zones[Int.random(in: 0..<zones.count, using: &random)]
        // Days near the 2026 changes in Europe, North America and Lord Howe (April and October).
        let anchors = ["2026-03-05", "2026-03-25", "2026-04-02", "2026-10-01", "2026-10-22", "2026-10-30"]
        let base = LocalDateTime(date: CivilDate(daysSinceEpoch: Self.day(anchors[Int.random(in: 0..<anchors.count, using: &random)]) + Int.random(in: 0...6, using: &random)))
        let isTodo = Int.random(in: 0..<5, using: &random) == 0
        let allDay = !isTodo && Int.random(in: 0..<5, using: &random) == 0
        let startLocal = base.adding(seconds: allDay ? 0 : Int64(Int.random(in: 0..<96, using: &random) * 900))
        let clock = Int.random(in: 0..<3, using: &random)  // TZID, UTC, floating
        func value(_ name: String, _ local: LocalDateTime) -> String {
            if allDay { return "\(name);VALUE=DATE:" + String(stamp(local.secondsSinceEpoch, utc: false).prefix(8)) }
            switch clock {
            case 0: return "\(name);TZID=\(zone):" + stamp(local.secondsSinceEpoch, utc: false)
            case 1: return "\(name):" + stamp(local.secondsSinceEpoch, utc: true)
            default: return "\(name):" + stamp(local.secondsSinceEpoch, utc: false)
            }
        }
        var lines = [isTodo ? "BEGIN:VTODO" : "BEGIN:VEVENT", "UID:case"]
        let dated = !isTodo || Int.random(in: 0..<4, using: &random) > 0
        if isTodo {
            if dated && Bool.random(using: &random) { lines.append(value("DTSTART", startLocal)) }
            if dated { lines.append(value("DUE", startLocal.adding(seconds: 7200))) }
        } else {
            lines.append(value("DTSTART", startLocal))
            switch Int.random(in: 0..<3, using: &random) {
            case 0: lines.append(value("DTEND", startLocal.adding(seconds: allDay ? 86_400 : 3600)))
            case 1: lines.append(allDay ? "DURATION:P2D" : "DURATION:PT45M")
            default: break
            }
        }
        let recurrence = dated && lines.contains(where: { $0.hasPrefix("DTSTART") }) ? Int.random(in: 0..<4, using: &random) : 0
        switch recurrence {
        case 1: lines.append("RRULE:FREQ=DAILY;COUNT=\(Int.random(in: 2...20, using: &random))")
        case 2: lines.append("RRULE:FREQ=WEEKLY")
        case 3:
            lines.append("RRULE:FREQ=DAILY")
            lines.append(value("EXDATE", startLocal.adding(seconds: 86_400 * Int64(Int.random(in: 1...5, using: &random)))))
        default: break
        }
        let offsets = ["-PT15M", "-P1D", "-PT24H", "PT0S", "-P1DT2H", "PT30M", "-P1W", "-PT1H30M", "P1D", "-PT15H"]
        func alarm() -> [String] {
            var alarm = ["BEGIN:VALARM", "ACTION:DISPLAY"]
            if Int.random(in: 0..<6, using: &random) == 0 {
                let at = startLocal.secondsSinceEpoch + Int64(Int.random(in: -3...3, using: &random) * 86_400 + Int.random(in: 0..<86_400, using: &random))
                alarm.append("TRIGGER;VALUE=DATE-TIME:" + stamp(at, utc: true))
            } else {
                let related = Bool.random(using: &random) ? ";RELATED=END" : ""
                alarm.append("TRIGGER\(related):" + offsets[Int.random(in: 0..<offsets.count, using: &random)])
            }
            if Int.random(in: 0..<3, using: &random) == 0 {
                alarm.append("REPEAT:\(Int.random(in: 1...4, using: &random))")
                alarm.append(Bool.random(using: &random) ? "DURATION:PT10M" : "DURATION:P1D")
            }
            if Int.random(in: 0..<8, using: &random) == 0 {
                let at = startLocal.secondsSinceEpoch + Int64(Int.random(in: -2...6, using: &random) * 86_400)
                alarm.append("ACKNOWLEDGED:" + stamp(at, utc: true))
            }
            return alarm + ["END:VALARM"]
        }
        for _ in 0..<Int.random(in: 1...3, using: &random) { lines += alarm() }
        lines.append(isTodo ? "END:VTODO" : "END:VEVENT")
        if recurrence > 0 && !isTodo && Bool.random(using: &random) {
            // An override moving the third instance by a few hours, with an alarm of its own.
            let original = startLocal.adding(seconds: 2 * 86_400)
            lines += ["BEGIN:VEVENT", "UID:case", value("RECURRENCE-ID", original), value("DTSTART", original.adding(seconds: allDay ? 86_400 : 10_800))]
            lines += alarm() + ["END:VEVENT"]
        }
        let start = Double(startLocal.secondsSinceEpoch)
        let from = start + Double(Int.random(in: -10 * 86_400...5 * 86_400, using: &random))
        let to = from + Double(Int.random(in: 3600...25 * 86_400, using: &random))
        let split = (from + (to - from) * Double.random(in: 0...1, using: &random)).rounded()
        return Case(body: lines.joined(separator: "\n"), zone: zone, from: Date(timeIntervalSince1970: from),
                    split: Date(timeIntervalSince1970: split), to: Date(timeIntervalSince1970: to))
    }

    static func day(_ text: String) -> Int {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        return CivilDate(year: parts[0], month: parts[1], day: parts[2]).daysSinceEpoch
    }

    static func firings(_ window: ReminderWindow) -> [String] { window.reminders.map { "\($0.key)@\(iso($0.fireAt))" } }

    @Test("firings lie in their window, sorted, under unique keys, the same on every run, and the same a wider window finds there",
          arguments: 0..<8)
    func windowsAgree(batch: Int) throws {
        var random = SplitMix(state: UInt64(batch) &* 7919 &+ 17)
        var total = 0, outsideTheirInstance = 0
        for _ in 0..<50 {
            let testCase = Self.makeCase(&random)
            let schedule = ReminderSchedule(calendar: try reminderCalendar(testCase.body), zone: try #require(TimeZoneResolver().rules(for: testCase.zone)))
            let whole = schedule.reminders(from: testCase.from, to: testCase.to)
            #expect(!whole.truncated, "\(testCase)")
            total += whole.reminders.count
            outsideTheirInstance += whole.reminders.filter { ($0.instanceStart ?? $0.fireAt) >= testCase.to || ($0.instanceEnd ?? .distantFuture) < testCase.from }.count
            #expect(whole.reminders.allSatisfy { $0.fireAt >= testCase.from && $0.fireAt < testCase.to }, "\(testCase)")
            #expect(zip(whole.reminders, whole.reminders.dropFirst()).allSatisfy { $0.fireAt <= $1.fireAt }, "\(testCase)")
            #expect(Set(whole.reminders.map(\.key)).count == whole.reminders.count, "\(testCase)")
            #expect(Self.firings(schedule.reminders(from: testCase.from, to: testCase.to)) == Self.firings(whole), "\(testCase)")
            // Two halves make the whole.
            let halves = Self.firings(schedule.reminders(from: testCase.from, to: testCase.split))
                + Self.firings(schedule.reminders(from: testCase.split, to: testCase.to))
            #expect(Set(halves) == Set(Self.firings(whole)) && halves.count == whole.reminders.count, "\(testCase)")
            // A window sixty days wider on each side, cut back to this one.
            let wide = schedule.reminders(from: testCase.from.addingTimeInterval(-60 * 86_400), to: testCase.to.addingTimeInterval(60 * 86_400), limit: 100_000)
            let cut = wide.reminders.filter { $0.fireAt >= testCase.from && $0.fireAt < testCase.to }
            #expect(Set(cut.map { "\($0.key)@\(iso($0.fireAt))" }) == Set(Self.firings(whole)), "\(testCase)")
        }
        // The cases exercise something: firings, some of them for instances outside the window.
        #expect(total > 50 && outsideTheirInstance > 0, "\(total) firings, \(outsideTheirInstance) of instances outside their window")
    }
}
