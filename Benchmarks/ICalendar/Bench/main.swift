// Times parse + serialise of FILE and a one-year expansion, the same work as
// bench_reference.py does in Python. Prints JSON: best seconds of ROUNDS and counts.
import Foundation
import ICalendar

let arguments = CommandLine.arguments
guard arguments.count >= 2, let data = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: bench FILE [ROUNDS [INSTANCES-OUT]]\n".utf8))
    exit(2)
}
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
let bytes = [UInt8](data)
let clock = ContinuousClock()

func best<T>(_ body: () throws -> T) rethrows -> (Double, T) {
    var fastest = Double.infinity
    var last: T? = nil
    for _ in 0..<rounds {
        let start = clock.now
        let value = try body()
        let elapsed = clock.now - start
        fastest = min(fastest, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        last = value
    }
    return (fastest, last!)
}

do {
    let (parseSerialise, outBytes) = try best { () throws -> Int in
        let calendar = try ICalendarParser().parseCalendar(bytes: bytes)
        return calendar.serialized.utf8.count
    }
    let calendar = try ICalendarParser().parseCalendar(bytes: bytes)
    let from = Int64(1_767_225_600), to = Int64(1_798_761_600)  // 2026-01-01 … 2027-01-01 UTC
    let (expand, instances) = best { () -> Int in
        CalendarExpander(calendar: calendar, options: ExpansionOptions(maxInstances: 1_000_000)).expand(from: from, to: to).occurrences.count
    }
    if arguments.count > 3 {
        // The instance list, for checking the set against the reference.
        let result = CalendarExpander(calendar: calendar, options: ExpansionOptions(maxInstances: 1_000_000)).expand(from: from, to: to)
        let lines = result.occurrences.map { "\($0.uid) \($0.start.iso8601) \($0.end.iso8601)" }.sorted()
        try lines.joined(separator: "\n").write(toFile: arguments[3], atomically: true, encoding: .utf8)
    }
    print("{\"parseSerialise\": \(parseSerialise), \"expand\": \(expand), \"instances\": \(instances), \"bytes\": \(bytes.count), \"outBytes\": \(outBytes)}")
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
