import Foundation
import ICalendar

extension ICalendarFeed {
    /// A feed's items checked as calendar objects (RFC 4791 §4.1, indexed), for a subscription's
    /// refresh, an import and `jadwal ics feed` alike.
    public struct Objects: Sendable {
        /// The items a calendar of the accepted kinds stores, in feed order.
        public var contents: [(uid: String, content: CalendarObjectContent)] = []
        /// Items that are not valid calendar objects, each said as a skipped component.
        public var unreadable: [Problem] = []
        /// Valid items of a kind the calendar does not hold; the caller decides whether to say so.
        public var unsupported: [Item] = []
    }

    public static func objects(_ items: [Item], accepting kinds: Set<ComponentKind> = Set(ComponentKind.allCases)) -> Objects {
        var objects = Objects()
        for item in items {
            do {
                let content = try CalendarObjectContent(text: item.text)
                if kinds.contains(content.component) {
                    objects.contents.append((item.uid, content))
                } else {
                    objects.unsupported.append(item)
                }
            } catch {
                objects.unreadable.append(Problem(line: 0, component: "\(item.kind) \(item.uid)", reason: error.description, skipped: true))
            }
        }
        return objects
    }
}
