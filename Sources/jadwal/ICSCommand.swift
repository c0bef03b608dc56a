import ArgumentParser
import Foundation
import ICalendar
import JadwalCore

/// `jadwal ics …`: tools for people debugging calendars and for checking Jadwal's
/// iCalendar engine against other engines.
struct ICSCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ics",
        abstract: "Validate and expand iCalendar files.",
        subcommands: [Validate.self, Expand.self, Feed.self]
    )

    struct Feed: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read files as a subscription reads a feed; print one JSON line per file.",
            discussion: """
            Each line is {"file", "components", "objects", "skipped", "mended", "problems", "error"}: how many \
            VEVENT, VTODO and VJOURNAL components the file holds, how many calendar objects (one per UID) Jadwal \
            would store, how many components it left out and how many it mended, and why; or why the file is not \
            a calendar at all.
            """
        )

        @Argument(help: "The .ics files to read.")
        var files: [String]

        func run() async throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            struct Line: Encodable {
                var file: String
                var components = 0, objects = 0, skipped = 0, mended = 0
                var error: String?
                /// What was left out or mended, the way the subscription's status lists it.
                var problems: [String] = []
            }
            for file in files {
                var line = Line(file: file)
                do {
                    let feed = try ICalendarFeed(bytes: try ICSCommand.read(file))
                    line.components = feed.componentCount
                    line.skipped = feed.problems.filter(\.skipped).count
                    line.mended = feed.problems.count - line.skipped
                    line.problems = feed.problems.map(\.description)
                    let objects = ICalendarFeed.objects(feed.items)
                    line.objects = objects.contents.count
                    line.skipped += objects.unreadable.count
                    line.problems += objects.unreadable.map { "\($0.component): \($0.reason)" }
                } catch {
                    line.error = "\(error)"
                }
                print(String(decoding: try encoder.encode(line), as: UTF8.self))
            }
        }
    }

    struct Validate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Report problems in iCalendar files, with line numbers. Exits 1 when there are any."
        )

        @Argument(help: "The .ics files to check.")
        var files: [String]

        func run() async throws {
            var problemCount = 0
            for file in files {
                let problems = ICalendarValidator().validate(bytes: try ICSCommand.read(file))
                problemCount += problems.count
                for problem in problems { print("\(file): \(problem)") }
                if problems.isEmpty { print("\(file): OK") }
            }
            if problemCount > 0 { throw ExitCode(1) }
        }
    }

    struct Expand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print every instance overlapping a window as one JSON object per line, in start order.",
            discussion: """
            Each line is {"uid", "recurrenceId", "start", "end", "allDay", "summary"}: start and end are UTC \
            instants (floating times are read as UTC) or YYYY-MM-DD for all-day items. Overridden instances \
            appear as their override; EXDATEs and STATUS:CANCELLED instances are left out.
            """
        )

        @Argument(help: "The .ics file to expand.")
        var file: String

        @Option(help: "Window start, an ISO-8601 UTC instant (2026-01-01T00:00:00Z) or a date.")
        var from: String

        @Option(help: "Window end (exclusive), same format.")
        var to: String

        @Option(help: "Stop after this many instances.")
        var limit: Int = 100_000

        @Flag(help: "Also print instances whose STATUS is CANCELLED.")
        var includeCancelled = false

        @Option(name: .customLong("component"), help: "Component type to expand (repeatable): VEVENT, VTODO, VJOURNAL.")
        var components: [String] = ["VEVENT"]

        func run() async throws {
            guard let start = ICSCommand.parseInstant(from) else {
                throw ValidationError("--from \"\(from)\" is not an ISO-8601 instant like 2026-01-01T00:00:00Z")
            }
            guard let end = ICSCommand.parseInstant(to) else {
                throw ValidationError("--to \"\(to)\" is not an ISO-8601 instant like 2027-01-01T00:00:00Z")
            }
            guard end >= start else { throw ValidationError("--to must not be before --from") }
            let roots = try ICalendarParser().parse(bytes: try ICSCommand.read(file))
            let calendars = roots.filter { $0.name == "VCALENDAR" }
            guard !calendars.isEmpty else { throw ValidationError("\(file) has no VCALENDAR") }
            let options = ExpansionOptions(maxInstances: limit, includeCancelled: includeCancelled,
                                           componentNames: Set(components.map { $0.uppercased() }))
            // Some exports concatenate several VCALENDARs; each keeps its own VTIMEZONEs.
            var result = ExpansionResult(occurrences: [], truncated: false, problems: [])
            for calendar in calendars {
                let part = CalendarExpander(calendar: calendar, options: options).expand(from: start, to: end)
                result.occurrences += part.occurrences
                result.truncated = result.truncated || part.truncated
                result.problems += part.problems
            }
            if calendars.count > 1 {
                result.occurrences.sort { ($0.start, $0.uid) < ($1.start, $1.uid) }
            }
            if result.occurrences.count > limit {
                result.occurrences.removeLast(result.occurrences.count - limit)
                result.truncated = true
            }
            var out = ""
            for occurrence in result.occurrences {
                out += ICSCommand.jsonLine(occurrence)
                out += "\n"
                if out.utf8.count > 1 << 16 {
                    FileHandle.standardOutput.write(Data(out.utf8))
                    out = ""
                }
            }
            FileHandle.standardOutput.write(Data(out.utf8))
            for problem in result.problems {
                FileHandle.standardError.write(Data("\(file): \(problem)\n".utf8))
            }
            if result.truncated {
                FileHandle.standardError.write(Data("\(file): output truncated at the instance limit\n".utf8))
            }
            // Instances of components that could not be expanded are missing: say so in the exit code.
            if !result.problems.isEmpty { throw ExitCode(1) }
        }
    }

    static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read \(path)")
        }
        return [UInt8](data)
    }

    /// Accepts YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ and the iCalendar form 20260101T000000Z.
    static func parseInstant(_ text: String) -> Int64? {
        let compact = text.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        let value: DateOrDateTime
        do { value = try DateOrDateTime.parse(compact) } catch { return nil }
        switch value {
        case .date(let d): return Int64(d.daysSinceEpoch) * 86_400
        case .dateTime(let l, .utc): return l.secondsSinceEpoch
        case .dateTime: return nil
        }
    }

    static func jsonLine(_ o: Occurrence) -> String {
        let recurrence = o.recurrenceId.map { jsonString($0.iso8601) } ?? "null"
        let summary = o.summary.map(jsonString) ?? "null"
        return "{\"uid\":\(jsonString(o.uid)),\"recurrenceId\":\(recurrence),\"start\":\(jsonString(o.start.iso8601)),"
            + "\"end\":\(jsonString(o.end.iso8601)),\"allDay\":\(o.isAllDay),\"summary\":\(summary)}"
    }

    static func jsonString(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
