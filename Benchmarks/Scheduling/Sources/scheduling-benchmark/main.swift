import Foundation
import Scheduling

// Usage: swift run -c release scheduling-benchmark
// A month (March 2026, Europe/Berlin, with its daylight-saving change) of 1,000 events — 900
// single, 100 occurrences of five recurring series — and 155 prayer blocks (Jumu'ah on Fridays).
// Prints the median and 90th percentile, in microseconds, of:
//  1. building the BusyTime of the month from the 1,155 blocks in input order,
//  2. conflict detection for one event,
//  3. suggestions (N = 5) for a conflicting event, 30 and 60 minutes long, and 4 hours (which
//     rarely fit, so the whole 7-day horizon is searched),
//  4. planning 50 tasks over the following two weeks,
//  5. the two-week plan: 10 goals and 30 to-dos, with accepted and rejected items and learned
//     preferences, against the same month.

/// Deterministic numbers, so every run measures the same month.
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

guard let zone = TimeZone(identifier: "Europe/Berlin") else { fatalError("no Europe/Berlin zone data") }
let calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    return calendar
}()
var random = SplitMix(state: 2026)

func instant(day: Int, hour: Int, minute: Int) -> Date {
    guard let date = calendar.date(from: DateComponents(year: 2026, month: 3, day: day, hour: hour, minute: minute)) else {
        fatalError("bad date 2026-03-\(day) \(hour):\(minute)")
    }
    return date
}

func range(_ start: Date, minutes: Int) -> TimeRange {
    do { return try TimeRange(start: start, duration: Double(minutes) * 60) } catch { fatalError("\(error)") }
}

/// ISO weekday (1 = Monday) of a March 2026 day: 2026-03-01 is a Sunday.
func weekday(_ day: Int) -> Int { (day + 5) % 7 + 1 }

// March in Berlin: 31 local days, one of them 23 hours long (day 32 is 1 April).
let month: TimeRange
do { month = try TimeRange(start: instant(day: 1, hour: 0, minute: 0), end: instant(day: 32, hour: 0, minute: 0)) } catch { fatalError("\(error)") }

// 900 single events starting between 08:00 and 20:00, mostly short: about 29 a day, a crowded
// calendar whose free time is in pieces.
var blocks: [BusyBlock] = []
let lengths = [15, 15, 30, 30, 30, 45, 60, 60, 90]
for index in 0..<900 {
    let day = Int(random.next() % 31) + 1
    let start = instant(day: day, hour: 8, minute: 0).addingTimeInterval(Double(random.next() % 48) * 900)
    let minutes = lengths[Int(random.next() % UInt64(lengths.count))]
    blocks.append(BusyBlock(range(start, minutes: minutes), .event(id: "single-\(index)", title: "Event \(index)")))
}

// 100 occurrences of five series, each occurrence with its series' UID (as JadwalCore expands them).
let series: [(id: String, days: Set<Int>, hour: Int, minute: Int, minutes: Int, limit: Int)] = [
    ("standup", [1, 2, 3, 4, 5], 9, 0, 15, 22),
    ("lunch", [1, 2, 3, 4, 5, 6, 7], 13, 30, 45, 31),
    ("walk", [1, 2, 3, 4, 5, 6, 7], 19, 30, 30, 31),
    ("gym", [1, 3, 5], 18, 0, 60, 13),
    ("review", [2], 16, 0, 60, 3),
]
for item in series {
    var count = 0
    for day in 1...31 where item.days.contains(weekday(day)) && count < item.limit {
        blocks.append(BusyBlock(range(instant(day: day, hour: item.hour, minute: item.minute), minutes: item.minutes),
                                .event(id: item.id, title: item.id.capitalized)))
        count += 1
    }
}
let eventCount = blocks.count

// Five prayers a day, times drifting through the month as they do; Jumu'ah (an hour) on Fridays.
for day in 1...31 {
    let drift = day / 3
    let prayers: [(PrayerName, Int, Int)] = [(.fajr, 5, 20 - drift), (.dhuhr, 12, 25), (.asr, 15, 30 + drift / 2), (.maghrib, 18, 20 + drift), (.isha, 19, 50 + drift)]
    for (name, hour, minute) in prayers {
        let jumuah = weekday(day) == 5 && name == .dhuhr
        blocks.append(BusyBlock(range(instant(day: day, hour: hour, minute: minute), minutes: jumuah ? 60 : 20), .prayer(jumuah ? .jumuah : name)))
    }
}
blocks.shuffle(using: &random)

let sleep: Routine
let availability: Availability
do {
    sleep = try Routine(id: "sleep", name: "Sleep", start: TimeOfDay(hour: 23), end: TimeOfDay(hour: 7), days: Array(1...7))
    availability = Availability(timeZone: zone, sleep: sleep)
} catch { fatalError("\(error)") }

let busy = BusyTime(blocks, window: month)

// Events to check and to move: every 20th event of the month, on its own place.
let probes: [BusyBlock] = busy.blocks.filter { $0.referenceID?.hasPrefix("single-") ?? false }.enumerated()
    .filter { $0.offset % 20 == 0 }.map(\.element)
let conflicts30 = probes.compactMap { probe -> Conflict? in
    busy.conflict(for: BusyBlock(range(probe.range.start, minutes: 30), .event(id: "new-30", title: "New")))
}
let conflicts60 = probes.compactMap { probe -> Conflict? in
    busy.conflict(for: BusyBlock(range(probe.range.start, minutes: 60), .event(id: "new-60", title: "New")))
}
// Four hours rarely fit in this month's waking hours: the search mostly walks the whole horizon.
let conflicts240 = probes.compactMap { probe -> Conflict? in
    busy.conflict(for: BusyBlock(range(probe.range.start, minutes: 240), .event(id: "new-240", title: "New")))
}

// 50 tasks from Monday 2026-03-09 08:00, due over the next two weeks.
let now = instant(day: 9, hour: 8, minute: 0)
var tasks: [PlannableTask] = []
do {
    for index in 0..<50 {
        let estimate = Double([30, 45, 60, 90, 120, 180][Int(random.next() % 6)]) * 60
        let due: Date? = index % 10 == 9 ? nil : now.addingTimeInterval(Double(2 + random.next() % (14 * 24 - 2)) * 3600)
        tasks.append(try PlannableTask(id: "task-\(index)", title: "Task \(index)", estimate: estimate, due: due,
                                       priority: Int(random.next() % 10), created: now.addingTimeInterval(-Double(index) * 3600)))
    }
} catch { fatalError("\(error)") }

// MARK: Measuring

let clock = ContinuousClock()

func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

/// Runs `body` once to warm up, then `iterations` times; `perCall` divides each sample for
/// bodies that repeat one operation several times.
func measure(_ label: String, iterations: Int, perCall: Int = 1, _ body: (Int) -> Int) {
    var checksum = body(0)
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for iteration in 0..<iterations {
        let elapsed = clock.measure { checksum &+= body(iteration) }
        samples.append(microseconds(elapsed) / Double(perCall))
    }
    samples.sort()
    let median = samples[samples.count / 2]
    let p90 = samples[Int(Double(samples.count) * 0.9)]
    let p99 = samples[min(samples.count - 1, Int(Double(samples.count) * 0.99))]
    print(String(format: "%-52@ median %9.2f µs   p90 %9.2f µs   p99 %9.2f µs   (%ld runs, checksum %ld)",
                 label as NSString, median, p90, p99, iterations, checksum))
}

print("Scheduling benchmark (\(ProcessInfo.processInfo.activeProcessorCount) cores): \(eventCount) events, \(blocks.count - eventCount) prayer blocks, \(busy.merged.count) busy stretches")

measure("busy time of the month (\(blocks.count) blocks)", iterations: 500) { _ in
    BusyTime(blocks, window: month).merged.count
}

let checks = probes.map { BusyBlock(range($0.range.start.addingTimeInterval(600), minutes: 45), .event(id: "check", title: "Check")) }
measure("conflict detection, one event (batches of \(checks.count))", iterations: 2000, perCall: checks.count) { _ in
    var overlaps = 0
    for block in checks { overlaps += busy.conflict(for: block)?.overlaps.count ?? 0 }
    return overlaps
}

do {
    let search = try FreeSlotSearch(availability: availability, count: 5)
    let searchNow = instant(day: 1, hour: 0, minute: 0)
    var found = 0, sameDay = 0
    for conflict in conflicts30 + conflicts60 {
        let slots = search.suggestions(for: conflict, busy: busy, now: searchNow)
        found += slots.count
        sameDay += slots.filter { $0.explanation.day == .sameDay }.count
    }
    print("  \(conflicts30.count + conflicts60.count) conflicts: \(found) suggestions, \(sameDay) on the same day; e.g. \(search.suggestions(for: conflicts60[3], busy: busy, now: searchNow).map(\.explanation.description))")
    measure("suggestions N=5, 30-minute event (\(conflicts30.count) conflicts)", iterations: 3000) { iteration in
        search.suggestions(for: conflicts30[iteration % conflicts30.count], busy: busy, now: searchNow).count
    }
    measure("suggestions N=5, 60-minute event (\(conflicts60.count) conflicts)", iterations: 3000) { iteration in
        search.suggestions(for: conflicts60[iteration % conflicts60.count], busy: busy, now: searchNow).count
    }
    let none = conflicts240.map { search.suggestions(for: $0, busy: busy, now: searchNow).count }.reduce(0, +)
    print("  4-hour events: \(none) suggestions in 7 days")
    measure("suggestions N=5, 4-hour event (whole horizon)", iterations: 3000) { iteration in
        search.suggestions(for: conflicts240[iteration % conflicts240.count], busy: busy, now: searchNow).count
    }
} catch { fatalError("\(error)") }

let plan = TaskPlan(tasks: tasks, busy: busy, availability: availability, now: now)
print("  50 tasks: \(plan.placed.count) blocks placed for \(Set(plan.placed.map(\.taskID)).count) tasks, \(plan.unplaced.count) reported unplaced")
measure("plan 50 tasks over two weeks", iterations: 300) { _ in
    TaskPlan(tasks: tasks, busy: busy, availability: availability, now: now).placed.count
}

// MARK: The two-week plan

// Ten goals of every kind and thirty to-dos, from Monday 2026-03-09 08:00: the month's crowded
// days leave little room, so most periods are searched to the end — the expensive case.
let goals: [Goal]
let todos: [PlannableTask]
let planInput: TwoWeekPlan.Input
do {
    goals = try [
        Goal(id: "exercise", title: "Exercise", category: .exercise, minutesPerSession: 45, perWeek: 3, from: "05:00", to: "09:00", minimumGapMinutes: 20 * 60 - 45),
        Goal(id: "read", title: "Read", category: .focus, minutesPerSession: 30, perDay: 1, from: "06:00", to: "23:00"),
        Goal(id: "study", title: "Study", category: .focus, minutesPerSession: 120, perDay: 1, from: "16:00", to: "23:00", days: ["MO", "TU", "WE", "TH", "FR"]),
        Goal(id: "sleep", title: "Sleep", category: .sleep, minutesPerSession: 450, perDay: 1, from: "21:30", to: "07:00"),
        Goal(id: "walk", title: "Walk", category: .exercise, minutesPerSession: 30, perWeek: 4, from: "07:00", to: "21:00"),
        Goal(id: "quran", title: "Quran", category: .focus, minutesPerSession: 20, perDay: 1, from: "05:00", to: "08:00"),
        Goal(id: "language", title: "Arabic practice", category: .focus, minutesPerSession: 30, perWeek: 5, from: "07:00", to: "22:00", preferredTime: .evening),
        Goal(id: "stretch", title: "Stretch", category: .exercise, minutesPerSession: 15, perDay: 2, from: "07:00", to: "22:00", minimumGapMinutes: 180),
        Goal(id: "journal", title: "Journal", category: .other, minutesPerSession: 15, perDay: 1, from: "19:00", to: "23:00"),
        Goal(id: "family", title: "Call family", category: .other, minutesPerSession: 30, perWeek: 1, from: "10:00", to: "21:00", days: ["SA", "SU"]),
    ]
    todos = try (0..<30).map { index in
        let estimate = Double([30, 45, 60, 90, 120, 180][Int(random.next() % 6)]) * 60
        let due: Date? = index % 6 == 5 ? nil : now.addingTimeInterval(Double(4 + random.next() % (14 * 24 - 4)) * 3600)
        return try PlannableTask(id: "todo-\(index)", title: "To-do \(index)", estimate: estimate, due: due,
                                 priority: Int(random.next() % 10), created: now.addingTimeInterval(-Double(index) * 3600))
    }
    var learned = LearnedPreferences()
    learned.record(.accepted(instant(day: 3, hour: 6, minute: 30)), goalID: "exercise", timeZone: zone)
    learned.record(.rejected(instant(day: 4, hour: 19, minute: 0)), goalID: "read", timeZone: zone)
    learned.record(.moved(from: instant(day: 5, hour: 18, minute: 0), to: instant(day: 5, hour: 21, minute: 0)), goalID: "language", timeZone: zone)
    let accepted = [ItemPlacement(subject: .goal(id: "exercise"), range: range(instant(day: 9, hour: 6, minute: 0), minutes: 45))]
    let rejected = [ItemPlacement(subject: .goal(id: "read"), range: range(instant(day: 9, hour: 21, minute: 0), minutes: 30))]
    let preferences = try PlannerPreferences(wake: TimeOfDay(hour: 6), sleep: TimeOfDay(hour: 23),
                                             work: WeeklyHours(start: TimeOfDay(hour: 9), end: TimeOfDay(hour: 17), days: .weekdays),
                                             exerciseTime: .morning, focusTime: .evening, intensity: .full)
    planInput = try TwoWeekPlan.Input(now: now, timeZone: zone, goals: goals, tasks: todos, busy: busy, accepted: accepted,
                                      rejected: rejected, preferences: preferences, learned: learned)
} catch { fatalError("\(error)") }

let twoWeeks = TwoWeekPlan(planInput)
print("  two-week plan: \(twoWeeks.proposals.count) proposals (\(twoWeeks.proposals.filter { if case .goal = $0.subject { true } else { false } }.count) goal sessions), "
    + "\(twoWeeks.shortfalls.count) goal periods short, \(twoWeeks.unplacedTasks.count) to-dos unplaced")
if let example = twoWeeks.proposals.first(where: { $0.subject == .goal(id: "exercise") }) {
    print("  e.g. \(example.reason.sentence(in: .english)) / \(example.reason.sentence(in: .arabic))")
}
measure("two-week plan: 10 goals, 30 to-dos", iterations: 300) { _ in
    TwoWeekPlan(planInput).proposals.count
}
measure("two-week plan incl. busy time of the month", iterations: 300) { _ in
    let input = try? TwoWeekPlan.Input(now: now, timeZone: zone, goals: goals, tasks: todos, busy: BusyTime(blocks, window: month),
                                       accepted: planInput.accepted, rejected: planInput.rejected, preferences: planInput.preferences,
                                       learned: planInput.learned)
    return input.map { TwoWeekPlan($0).proposals.count } ?? 0
}
