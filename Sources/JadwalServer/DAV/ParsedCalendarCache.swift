import ICalendar
import JadwalCore
import Synchronization

/// Parsed calendar objects by ETag. Queries read the same objects again and again (every sync
/// client asks for the coming week), and parsing is most of a query's cost. The ETag is a hash
/// of the bytes, so an entry can never be stale; the table is bounded and simply emptied when full.
final class ParsedCalendarCache: Sendable {
    static let shared = ParsedCalendarCache(capacity: 50_000)

    private let capacity: Int
    private let table = Mutex<[String: Component]>([:])

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The parsed object, or nil when the stored text no longer parses.
    func calendar(for object: CalendarObject) -> Component? {
        if let hit = table.withLock({ $0[object.etag] }) { return hit }
        guard let parsed = try? ICalendarParser().parseCalendar(object.icalendar) else { return nil }
        table.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[object.etag] = parsed
        }
        return parsed
    }
}
