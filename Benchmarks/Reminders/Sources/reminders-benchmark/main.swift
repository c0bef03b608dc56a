import Foundation
import ICalendar
import Reminders

// Usage: swift run -c release reminders-benchmark
// 10,000 calendar objects of one person in Europe/Berlin (10% recurring, 30% with one or two
// VALARMs), generated from a fixed seed; the reminders of the next 30 days from 2026-03-15, a
// window holding Berlin's spring change. Prints the median and 90th percentile of:
//  1. all 10,000 objects from their stored text: parse, then compute (a scheduler without a cache),
//  2. all 10,000 already parsed (the server's cache of parsed objects),
//  3. only the 3,000 with alarms, parsed (a scheduler that asks the index for those),
//  4. one recurring object with alarms, per call, and the expansion alone of it.

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

var random = SplitMix(state: 2026)
@MainActor func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
@MainActor func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }

func stamp(_ local: LocalDateTime) -> String {
    String(format: "%04d%02d%02dT%02d%02d00", local.date.year, local.date.month, local.date.day, local.hour, local.minute)
}

func dateStamp(_ date: CivilDate) -> String { String(format: "%04d%02d%02d", date.year, date.month, date.day) }

let relativeTriggers = ["-PT15M", "-PT15M", "-PT10M", "-PT30M", "-PT1H", "-P1D", "-PT5M", "PT0S"]

@MainActor func alarm(allDay: Bool, near: LocalDateTime) -> [String] {
    var lines = ["BEGIN:VALARM", "UID:alarm-\(random.next() % 1_000_000_000)", "ACTION:DISPLAY", "DESCRIPTION:Reminder"]
    if allDay {
        lines.append(pick(["TRIGGER:-PT15H", "TRIGGER:-P1D", "TRIGGER:PT9H"]))
    } else if chance(5) {
        lines.append("TRIGGER;VALUE=DATE-TIME:" + stamp(near.adding(seconds: -3600)) + "Z")
    } else if chance(10) {
        lines.append("TRIGGER;RELATED=END:" + pick(["PT0S", "-PT5M"]))
    } else {
        lines.append("TRIGGER:" + pick(relativeTriggers))
    }
    if chance(10) { lines += ["REPEAT:2", "DURATION:PT5M"] }
    return lines + ["END:VALARM"]
}

// Objects: 90% single events spread over 2026, 10% series begun in the six months before the window.
let firstDay = CivilDate(year: 2026, month: 1, day: 1).daysSinceEpoch
let seriesFirstDay = CivilDate(year: 2025, month: 9, day: 15).daysSinceEpoch
var texts: [String] = []
var hasAlarms: [Bool] = []
var isRecurring: [Bool] = []
for index in 0..<10_000 {
    let recurring = index % 10 == 0
    let withAlarms = chance(30)
    let allDay = !recurring && chance(10)
    let day = recurring ? seriesFirstDay + Int.random(in: 0..<180, using: &random) : firstDay + Int.random(in: 0..<365, using: &random)
    let start = LocalDateTime(date: CivilDate(daysSinceEpoch: day), hour: Int.random(in: 7...20, using: &random), minute: pick([0, 15, 30, 45]))
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal//Benchmark//EN", "BEGIN:VEVENT", "UID:event-\(index)@bench.jadwal.invalid",
                 "DTSTAMP:20260101T000000Z", "SUMMARY:Event \(index)"]
    if allDay {
        lines += ["DTSTART;VALUE=DATE:" + dateStamp(start.date), "DTEND;VALUE=DATE:" + dateStamp(start.date.adding(days: 1))]
    } else if chance(5) {
        lines += ["DTSTART:" + stamp(start) + "Z", "DURATION:PT" + pick(["30M", "1H", "45M"])]
    } else {
        let minutes = pick([15, 30, 45, 60, 90])
        lines += ["DTSTART;TZID=Europe/Berlin:" + stamp(start), "DTEND;TZID=Europe/Berlin:" + stamp(start.adding(seconds: Int64(minutes * 60)))]
    }
    if recurring {
        lines.append(pick(["RRULE:FREQ=DAILY", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "RRULE:FREQ=WEEKLY", "RRULE:FREQ=WEEKLY",
                           "RRULE:FREQ=MONTHLY", "RRULE:FREQ=WEEKLY;INTERVAL=2", "RRULE:FREQ=DAILY;COUNT=200"]))
        if chance(30) { lines.append("EXDATE;TZID=Europe/Berlin:" + stamp(start.adding(seconds: 7 * 86_400))) }
    }
    let alarmCount = withAlarms ? (chance(30) ? 2 : 1) : 0
    for _ in 0..<alarmCount { lines += alarm(allDay: allDay, near: start) }
    lines.append("END:VEVENT")
    if recurring && withAlarms && chance(30) {
        // One instance moved by an hour, with its own copy of an alarm, as calendar apps write it.
        let moved = LocalDateTime(date: CivilDate(daysSinceEpoch: CivilDate(year: 2026, month: 3, day: 20).daysSinceEpoch), hour: start.hour, minute: start.minute)
        lines += ["BEGIN:VEVENT", "UID:event-\(index)@bench.jadwal.invalid", "DTSTAMP:20260101T000000Z", "SUMMARY:Event \(index) (moved)",
                  "RECURRENCE-ID;TZID=Europe/Berlin:" + stamp(moved), "DTSTART;TZID=Europe/Berlin:" + stamp(moved.adding(seconds: 3600)),
                  "DTEND;TZID=Europe/Berlin:" + stamp(moved.adding(seconds: 5400))]
        lines += alarm(allDay: false, near: moved) + ["END:VEVENT"]
    }
    lines.append("END:VCALENDAR")
    texts.append(lines.joined(separator: "\r\n") + "\r\n")
    hasAlarms.append(withAlarms)
    isRecurring.append(recurring)
}

guard let zone = ZoneRules(ianaIdentifier: "Europe/Berlin") else { fatalError("no Europe/Berlin zone data") }
let parser = ICalendarParser()
let parsed: [Component] = texts.map { text in
    do { return try parser.parseCalendar(text) } catch { fatalError("generated object does not parse: \(error)") }
}
let from = Date(timeIntervalSince1970: 1_773_532_800)  // 2026-03-15T00:00:00Z
let to = from.addingTimeInterval(30 * 86_400)
let withAlarms = parsed.indices.filter { hasAlarms[$0] }.map { parsed[$0] }
guard let sample = parsed.indices.first(where: { isRecurring[$0] && hasAlarms[$0] && parsed[$0].components.count > 1 }).map({ parsed[$0] }) else {
    fatalError("no recurring object with an override")
}

let clock = ContinuousClock()

func milliseconds(_ duration: Swift.Duration) -> Double {
    Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
}

/// Runs `body` once to warm up, then `iterations` times; `perCall` divides each sample.
@MainActor func measure(_ label: String, iterations: Int, perCall: Int = 1, unit: String = "ms", _ body: () -> Int) {
    var checksum = body()
    var samples: [Double] = []
    for _ in 0..<iterations {
        let elapsed = clock.measure { checksum &+= body() }
        samples.append(milliseconds(elapsed) * (unit == "µs" ? 1000 : 1) / Double(perCall))
    }
    samples.sort()
    let median = samples[samples.count / 2]
    let p90 = samples[min(samples.count - 1, Int(Double(samples.count) * 0.9))]
    print(String(format: "%-58@ median %9.3f %@   p90 %9.3f %@   (%ld runs, checksum %ld)",
                 label as NSString, median, unit as NSString, p90, unit as NSString, iterations, checksum))
}

// What the runs find, printed once so the figures can be checked for sense.
var found = 0, recurringFound = 0, skipped = 0, truncated = 0
for (index, calendar) in parsed.enumerated() {
    let window = ReminderSchedule(calendar: calendar, zone: zone).reminders(from: from, to: to)
    found += window.reminders.count
    if isRecurring[index] { recurringFound += window.reminders.count }
    skipped += window.skipped.count
    truncated += window.truncated ? 1 : 0
}
print("Reminders benchmark (\(ProcessInfo.processInfo.activeProcessorCount) cores): \(texts.count) objects, \(isRecurring.filter { $0 }.count) recurring, \(withAlarms.count) with alarms, \(texts.reduce(0) { $0 + $1.utf8.count } / 1024) KiB of iCalendar")
print("the single object timed: \(sample.components.first?.first("RRULE")?.value ?? "?"), \(sample.components.count - 1) override, \(ReminderSchedule(calendar: sample, zone: zone).reminders(from: from, to: to).reminders.count) reminders in the window")
print("30 days from 2026-03-15: \(found) reminders (\(recurringFound) of recurring events), \(skipped) skipped alarms, \(truncated) truncated")

measure("10,000 objects from text (parse + reminders)", iterations: 5) {
    var count = 0
    for text in texts {
        guard let calendar = try? parser.parseCalendar(text) else { continue }
        count += ReminderSchedule(calendar: calendar, zone: zone).reminders(from: from, to: to).reminders.count
    }
    return count
}
measure("10,000 parsed objects (reminders only)", iterations: 9) {
    parsed.reduce(0) { $0 + ReminderSchedule(calendar: $1, zone: zone).reminders(from: from, to: to).reminders.count }
}
measure("\(withAlarms.count) parsed objects with alarms", iterations: 9) {
    withAlarms.reduce(0) { $0 + ReminderSchedule(calendar: $1, zone: zone).reminders(from: from, to: to).reminders.count }
}
measure("one recurring object with an override and alarms", iterations: 2000, unit: "µs") {
    ReminderSchedule(calendar: sample, zone: zone).reminders(from: from, to: to).reminders.count
}
// For comparison: the expansion alone of the same object over the same window widened as the
// schedule widens it (a day of lead, two of slack each side).
measure("  of which: expanding it (CalendarExpander alone)", iterations: 2000, unit: "µs") {
    let options = ExpansionOptions(floatingZone: zone, componentNames: ["VEVENT", "VTODO"])
    let start = Int64(from.timeIntervalSince1970) - 2 * 86_400, end = Int64(to.timeIntervalSince1970) + 3 * 86_400
    return CalendarExpander(calendar: sample, options: options).expand(from: start, to: end).occurrences.count
}
