import Foundation

/// A calendar published as one `.ics` document (a subscription feed or an export), read the
/// lenient way real feeds need: each component is read on its own, so one broken component is
/// skipped and reported, never the whole feed; the rest is split into one calendar object per
/// UID (overrides with their master), each with the time zones it uses.
///
/// What is mended, and said in `problems`: a missing DTSTAMP (taken from LAST-MODIFIED or
/// CREATED, so an unchanged feed reads the same every time), a missing UID (made from the
/// component's text), duplicate UIDs (the highest SEQUENCE, then the latest change, wins), and a
/// TZID that neither the feed nor the zone database defines (read as floating time).
/// CRLF, LF and CR line ends, a byte-order mark and UTF-8 folded mid-character are all read.
public struct ICalendarFeed: Sendable {
    /// One calendar object: a VCALENDAR holding one UID's components.
    public struct Item: Sendable, Hashable {
        public var uid: String
        /// `VEVENT`, `VTODO` or `VJOURNAL`.
        public var kind: String
        public var calendar: Component
        /// The object as iCalendar text: the same feed content always gives the same text.
        public var text: String
    }

    /// Something in the feed that was skipped or mended.
    public struct Problem: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The line of the feed where the component begins (1-based; 0 for the feed as a whole).
        public var line: Int
        /// The component's type and UID when known, e.g. `VEVENT 1234@example.com`.
        public var component: String
        public var reason: String
        /// True when the component was left out; false when it was mended and kept.
        public var skipped: Bool

        public init(line: Int, component: String, reason: String, skipped: Bool) {
            self.line = line
            self.component = component
            self.reason = reason
            self.skipped = skipped
        }

        public var description: String {
            "line \(line): \(component.isEmpty ? "" : component + ": ")\(reason)\(skipped ? " (skipped)" : "")"
        }
    }

    /// Why a body is not a calendar at all.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case notICalendar(String)
        case tooLarge(limit: Int)

        public var description: String {
            switch self {
            case .notICalendar(let hint): "the document is not an iCalendar calendar: \(hint)"
            case .tooLarge(let limit): "the document is larger than \(limit) bytes"
            }
        }
    }

    public var items: [Item]
    public var problems: [Problem]
    /// `X-WR-CALNAME` or RFC 7986 `NAME`.
    public var name: String?
    /// RFC 7986 `COLOR` (a CSS colour name) or Apple's `X-APPLE-CALENDAR-COLOR` (`#RRGGBB`).
    public var color: String?
    /// `X-WR-TIMEZONE`: the zone floating times of the feed are meant in.
    public var timeZone: String?
    /// RFC 7986 `REFRESH-INTERVAL` or `X-PUBLISHED-TTL`, in seconds.
    public var refreshInterval: Int?
    /// How many VEVENT, VTODO and VJOURNAL components the feed holds, kept or not.
    public var componentCount: Int

    static let itemKinds: Set<String> = ["VEVENT", "VTODO", "VJOURNAL"]
    /// Properties whose TZID parameter names a zone.
    static let zonedProperties: Set<String> = ["DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "EXDATE", "RDATE"]

    /// Reads a feed's bytes. Fails only when they are not iCalendar at all.
    public init(bytes: [UInt8], maxBytes: Int = 64 << 20) throws(Failure) {
        guard bytes.count <= maxBytes else { throw .tooLarge(limit: maxBytes) }
        var lines = Self.logicalLines(bytes)
        if !lines.contains(where: { $0.text.uppercased() == "BEGIN:VCALENDAR" }),
           lines.contains(where: { Self.itemKinds.contains($0.text.uppercased().replacingOccurrences(of: "BEGIN:", with: "")) }) {
            // A bare VEVENT (or several) with no VCALENDAR around it: read as if it had one.
            lines.insert(Line(text: "BEGIN:VCALENDAR", number: 0), at: 0)
            lines.append(Line(text: "END:VCALENDAR", number: 0))
        }
        guard lines.contains(where: { $0.text.uppercased() == "BEGIN:VCALENDAR" }) else {
            let start = String(decoding: bytes.prefix(200), as: UTF8.self).lowercased()
            if start.contains("<html") || start.contains("<!doctype") {
                throw .notICalendar("it is a web page (HTML), not a calendar; check that the address is the feed's, not the page that links to it")
            }
            throw .notICalendar(bytes.isEmpty ? "it is empty" : "it has no BEGIN:VCALENDAR")
        }
        var reader = Reader()
        reader.read(lines)
        items = reader.items()
        problems = reader.problems
        name = reader.name
        color = reader.color
        timeZone = reader.timeZone
        refreshInterval = reader.refreshInterval
        componentCount = reader.componentCount
    }

    public init(text: String) throws(Failure) {
        try self.init(bytes: Array(text.utf8))
    }

    // MARK: Lines

    struct Line {
        var text: String
        var number: Int
    }

    /// Unfolds at the byte level, so a UTF-8 sequence folded across two lines is joined before it
    /// is decoded; invalid UTF-8 becomes U+FFFD in that line alone.
    static func logicalLines(_ bytes: [UInt8]) -> [Line] {
        var lines: [Line] = []
        var current: [UInt8] = []
        var currentNumber = 0
        var haveCurrent = false
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var physical = 0
        let end = bytes.count
        func flush() {
            if haveCurrent { lines.append(Line(text: String(decoding: current, as: UTF8.self), number: currentNumber)) }
            haveCurrent = false
        }
        while index < end {
            physical += 1
            var lineEnd = index
            while lineEnd < end, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
            var next = lineEnd
            if next < end { next += (bytes[next] == 0x0D && next + 1 < end && bytes[next + 1] == 0x0A) ? 2 : 1 }
            if lineEnd > index {
                if (bytes[index] == 0x20 || bytes[index] == 0x09), haveCurrent {
                    current.append(contentsOf: bytes[(index + 1)..<lineEnd])
                } else {
                    flush()
                    current = Array(bytes[index..<lineEnd])
                    currentNumber = physical
                    haveCurrent = true
                }
            }
            index = next
        }
        flush()
        return lines
    }

    // MARK: Reading

    struct Reader {
        var problems: [Problem] = []
        var name: String?
        var color: String?
        var timeZone: String?
        var refreshInterval: Int?
        var componentCount = 0
        var calscale: Property?
        /// VTIMEZONE components by TZID.
        var zones: [String: Component] = [:]
        /// Components to keep, in feed order.
        var kept: [(component: Component, line: Int)] = []

        mutating func read(_ lines: [Line]) {
            var index = 0
            var inCalendar = false
            while index < lines.count {
                let line = lines[index]
                let upper = line.text.uppercased()
                if !inCalendar {
                    if upper == "BEGIN:VCALENDAR" { inCalendar = true }
                    index += 1
                    continue
                }
                if upper == "END:VCALENDAR" {
                    inCalendar = false
                    index += 1
                    continue
                }
                if upper.hasPrefix("BEGIN:") {
                    let kind = String(upper.dropFirst(6))
                    let (chunk, after, closed) = Self.chunk(lines, from: index, kind: kind)
                    index = after
                    take(kind: kind, chunk: chunk, line: line.number, closed: closed)
                    continue
                }
                readCalendarProperty(line)
                index += 1
            }
        }

        /// The lines of the component beginning at `start`, through its END (nested components
        /// included), and the index after it; unclosed when the feed ends or the calendar closes first.
        static func chunk(_ lines: [Line], from start: Int, kind: String) -> ([Line], Int, Bool) {
            var depth: [String] = []
            var index = start
            while index < lines.count {
                let upper = lines[index].text.uppercased()
                if upper.hasPrefix("BEGIN:") {
                    depth.append(String(upper.dropFirst(6)))
                } else if upper.hasPrefix("END:") {
                    let name = String(upper.dropFirst(4))
                    if name == "VCALENDAR" { return (Array(lines[start..<index]), index, false) }
                    if let open = depth.lastIndex(of: name) {
                        depth.removeSubrange(open...)
                        if depth.isEmpty { return (Array(lines[start...index]), index + 1, true) }
                    }
                }
                index += 1
            }
            return (Array(lines[start..<index]), index, false)
        }

        mutating func readCalendarProperty(_ line: Line) {
            guard let property = try? Self.parseProperty(line.text) else { return }
            let value = property.text.trimmingCharacters(in: .whitespaces)
            switch property.name {
            case "X-WR-CALNAME": if !value.isEmpty { name = value }
            case "NAME": if name == nil, !value.isEmpty { name = value }
            case "COLOR": if !value.isEmpty { color = value }
            case "X-APPLE-CALENDAR-COLOR": if color == nil, !value.isEmpty { color = value }
            case "X-WR-TIMEZONE": if !value.isEmpty { timeZone = value }
            case "CALSCALE": calscale = property
            case "REFRESH-INTERVAL", "X-PUBLISHED-TTL":
                if let duration = try? Duration.parse(property.value), duration.totalSeconds > 0 { refreshInterval = Int(duration.totalSeconds) }
            default: break
            }
        }

        static func parseProperty(_ text: String) throws -> Property {
            let wrapped = "BEGIN:X-LINE\r\n" + text + "\r\nEND:X-LINE\r\n"
            guard let property = try ICalendarParser().parse(wrapped).first?.properties.first else {
                throw ICalendarError(.malformedContentLine, "empty line")
            }
            return property
        }

        mutating func take(kind: String, chunk: [Line], line: Int, closed: Bool) {
            let isItem = ICalendarFeed.itemKinds.contains(kind)
            if isItem { componentCount += 1 }
            guard closed else {
                problems.append(Problem(line: line, component: kind, reason: "BEGIN:\(kind) has no END:\(kind)", skipped: true))
                return
            }
            guard isItem || kind == "VTIMEZONE" else { return }  // VFREEBUSY, VAVAILABILITY, X- components: not calendar items
            let uid = chunk.lazy.compactMap { $0.text.uppercased().hasPrefix("UID:") ? String($0.text.dropFirst(4)) : nil }.first
            let label = [kind, uid ?? ""].joined(separator: " ").trimmingCharacters(in: .whitespaces)
            var lines = chunk
            var component: Component?
            // A line that cannot be read is left out (and said) when the component still has its
            // BEGIN and END; at most a few, so a garbled component is skipped rather than gutted.
            for _ in 0..<4 {
                let text = lines.map(\.text).joined(separator: "\r\n") + "\r\n"
                do {
                    component = try ICalendarParser().parse(text).first
                    break
                } catch let error as ICalendarError {
                    guard let bad = error.line, bad > 1, bad < lines.count, error.kind == .malformedContentLine || error.kind == .invalidValue
                    else {
                        problems.append(Problem(line: line, component: label, reason: "\(error)", skipped: true))
                        return
                    }
                    let dropped = lines.remove(at: bad - 1)
                    problems.append(Problem(line: dropped.number, component: label,
                                            reason: "the line \"\(dropped.text.prefix(60))\" cannot be read (\(error.message)); it was left out", skipped: false))
                } catch {
                    problems.append(Problem(line: line, component: label, reason: "\(error)", skipped: true))
                    return
                }
            }
            guard let component else {
                problems.append(Problem(line: line, component: label, reason: "too many of its lines cannot be read", skipped: true))
                return
            }
            if kind == "VTIMEZONE" {
                if let tzid = component.first("TZID")?.value, !tzid.isEmpty { zones[tzid] = component }
                return
            }
            kept.append((component, line))
        }

        /// The kept components grouped by UID, mended, with the zones each uses.
        mutating func items() -> [Item] {
            var order: [String] = []
            var groups: [String: [(component: Component, line: Int)]] = [:]
            for (original, line) in kept {
                var component = original
                var uid = component.first("UID")?.value.trimmingCharacters(in: .whitespaces) ?? ""
                if uid.isEmpty {
                    uid = "jadwal-feed-" + Self.stableHash(ICalendarSerializer().serialize(component))
                    component.set("UID", Property(name: "UID", value: uid))
                    problems.append(Problem(line: line, component: component.name, reason: "it has no UID; one was made from its content", skipped: false))
                }
                if component.name == "VEVENT", component.first("DTSTART") == nil {
                    problems.append(Problem(line: line, component: "VEVENT \(uid)", reason: "it has no DTSTART", skipped: true))
                    continue
                }
                guard mendValues(&component, line: line, uid: uid) else { continue }
                if component.first("DTSTAMP") == nil {
                    let stamp = component.first("LAST-MODIFIED")?.value ?? component.first("CREATED")?.value ?? "19700101T000000Z"
                    component.properties.insert(Property(name: "DTSTAMP", value: stamp), at: 0)
                }
                if groups[uid] == nil { order.append(uid) }
                groups[uid, default: []].append((component, line))
            }
            return order.compactMap { uid in groups[uid].flatMap { item(uid: uid, group: $0) } }
        }

        mutating func item(uid: String, group: [(component: Component, line: Int)]) -> Item? {
            guard let kind = group.first?.component.name else { return nil }
            // One component per RECURRENCE-ID (none for the master); a repeated one keeps the newest.
            var byInstance: [String: (component: Component, line: Int)] = [:]
            var instanceOrder: [String] = []
            for entry in group {
                guard entry.component.name == kind else {
                    problems.append(Problem(line: entry.line, component: "\(entry.component.name) \(uid)",
                                            reason: "its UID is also a \(kind)'s; one UID cannot hold two kinds", skipped: true))
                    continue
                }
                let key = entry.component.first("RECURRENCE-ID")?.value ?? ""
                if let other = byInstance[key] {
                    let keepNew = Self.isNewer(entry.component, than: other.component)
                    problems.append(Problem(line: keepNew ? other.line : entry.line, component: "\(kind) \(uid)",
                                            reason: "another component has the same UID\(key.isEmpty ? "" : " and RECURRENCE-ID"); the newer one is kept",
                                            skipped: true))
                    if keepNew { byInstance[key] = entry }
                } else {
                    byInstance[key] = entry
                    instanceOrder.append(key)
                }
            }
            // The master first, then overrides by RECURRENCE-ID, so the text does not depend on feed order.
            let components = instanceOrder.sorted().compactMap { byInstance[$0] }.map { mendZones($0.component, line: $0.line, uid: uid) }
            var calendar = Component(name: "VCALENDAR", properties: [
                Property(name: "VERSION", value: "2.0"), Property(name: "PRODID", value: "-//Jadwal//Feed//EN"),
            ])
            if let calscale { calendar.properties.append(Property(name: "CALSCALE", value: calscale.value)) }
            var used: [String] = []
            for component in components {
                for tzid in Self.tzids(in: component) where !used.contains(tzid) { used.append(tzid) }
            }
            for tzid in used.sorted() {
                if let zone = zones[tzid] { calendar.components.append(zone) }
            }
            calendar.components += components
            return Item(uid: uid, kind: kind, calendar: calendar, text: ICalendarSerializer().serialize(calendar))
        }

        /// Values the expander reads, checked here: an unreadable DTSTART (or RRULE) costs the
        /// component; an unreadable end, duration, RDATE or EXDATE, or an empty RRULE, is left
        /// out and the component kept. False when the component is skipped.
        mutating func mendValues(_ component: inout Component, line: Int, uid: String) -> Bool {
            let label = "\(component.name) \(uid)"
            if let start = component.first("DTSTART") {
                do {
                    _ = try start.dateValue()
                } catch {
                    problems.append(Problem(line: line, component: label, reason: "its DTSTART cannot be read: \(error)", skipped: true))
                    return false
                }
            }
            var kept: [Property] = []
            for property in component.properties {
                var reason: String?
                switch property.name {
                case "RRULE":
                    if property.value.trimmingCharacters(in: .whitespaces).isEmpty {
                        reason = "its RRULE is empty; it was read as a single event"
                    } else {
                        do {
                            _ = try RecurrenceRule.parse(property.value)
                        } catch {
                            problems.append(Problem(line: line, component: label, reason: "its RRULE cannot be read: \(error)", skipped: true))
                            return false
                        }
                    }
                case "RDATE", "EXDATE":
                    if (try? property.dateListValue()) == nil { reason = "its \(property.name) \"\(property.value.prefix(60))\" cannot be read; it was left out" }
                case "DTEND", "DUE":
                    if (try? property.dateValue()) == nil { reason = "its \(property.name) \"\(property.value.prefix(60))\" cannot be read; it was left out" }
                case "DURATION":
                    if (try? Duration.parse(property.value)) == nil { reason = "its DURATION \"\(property.value.prefix(60))\" cannot be read; it was left out" }
                default:
                    break
                }
                if let reason {
                    problems.append(Problem(line: line, component: label, reason: reason, skipped: false))
                } else {
                    kept.append(property)
                }
            }
            component.properties = kept
            return true
        }

        /// A TZID that neither the feed nor the zone database knows is dropped, so the time is read
        /// as floating (in the calendar's zone) instead of the component being lost.
        mutating func mendZones(_ component: Component, line: Int, uid: String) -> Component {
            var mended = component
            var unknown: [String] = []
            for index in mended.properties.indices where ICalendarFeed.zonedProperties.contains(mended.properties[index].name) {
                guard let tzid = mended.properties[index].parameter("TZID") else { continue }
                if zones[tzid] != nil || TimeZoneResolver.knownZone(tzid) != nil || TimeZoneResolver.offsetZone(tzid) != nil { continue }
                mended.properties[index].setParameter("TZID", nil)
                if !unknown.contains(tzid) { unknown.append(tzid) }
            }
            for tzid in unknown {
                problems.append(Problem(line: line, component: "\(component.name) \(uid)",
                                        reason: "time zone \"\(tzid)\" is not defined; its times are read in the calendar's zone", skipped: false))
            }
            return mended
        }

        static func tzids(in component: Component) -> [String] {
            var found: [String] = []
            for property in component.properties {
                if let tzid = property.parameter("TZID"), !found.contains(tzid) { found.append(tzid) }
            }
            for child in component.components {
                for tzid in tzids(in: child) where !found.contains(tzid) { found.append(tzid) }
            }
            return found
        }

        /// RFC 5546's order: a higher SEQUENCE wins, then a later DTSTAMP / LAST-MODIFIED; a tie keeps the later one.
        static func isNewer(_ candidate: Component, than current: Component) -> Bool {
            let sequence = { (c: Component) in Int(c.first("SEQUENCE")?.value ?? "") ?? 0 }
            if sequence(candidate) != sequence(current) { return sequence(candidate) > sequence(current) }
            let stamp = { (c: Component) in c.first("LAST-MODIFIED")?.value ?? c.first("DTSTAMP")?.value ?? "" }
            return stamp(candidate) >= stamp(current)
        }

        /// FNV-1a, twice with different seeds: stable across runs and machines (Swift's Hasher is not).
        static func stableHash(_ text: String) -> String {
            var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x8422_2325_cbf2_9ce4
            for byte in text.utf8 {
                a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
            return String(a, radix: 16) + String(b, radix: 16)
        }
    }
}
