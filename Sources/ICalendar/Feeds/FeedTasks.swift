/// A feed's items kept as to-dos (a course site's assignments), and the one change a person may
/// make to them: marking them done.
public enum FeedTasks {
    /// What stays the person's when the feed changes the item: whether it is done, and alarms.
    static let completionProperties: Set<String> = ["STATUS", "COMPLETED", "PERCENT-COMPLETE"]
    /// What a client rewrites on any save, so a completion may change it too.
    static let bookkeeping: Set<String> = ["DTSTAMP", "LAST-MODIFIED", "SEQUENCE"]

    /// The item as a to-do: an event becomes a VTODO due when it ends (or starts, when it has no
    /// end), with its title, description, link, place and categories; repeats and moved instances
    /// are dropped (an assignment is due once). To-dos stay as they are.
    public static func task(from item: ICalendarFeed.Item) -> ICalendarFeed.Item {
        guard item.kind == "VEVENT", let event = item.calendar.components.first(where: { $0.name == "VEVENT" && $0.isMaster }) else { return item }
        var todo = Component(name: "VTODO")
        for property in event.properties {
            switch property.name {
            case "DTSTART", "DTEND", "DURATION", "TRANSP", "RRULE", "RDATE", "EXDATE", "STATUS": continue
            default: todo.properties.append(property)
            }
        }
        if var due = event.first("DTEND") ?? event.first("DTSTART") {
            due.name = "DUE"
            todo.properties.append(due)
        }
        var calendar = item.calendar
        calendar.components = item.calendar.components.filter { $0.name == "VTIMEZONE" } + [todo]
        return ICalendarFeed.Item(uid: item.uid, kind: "VTODO", calendar: calendar, text: ICalendarSerializer().serialize(calendar))
    }

    /// Whether `proposed` differs from `current` only by being marked done or not (with the
    /// bookkeeping a client changes on every save, its own X- properties and alarms).
    public static func onlyCompletionChanged(from current: Component, to proposed: Component) -> Bool {
        func comparable(_ calendar: Component) -> [[Property]]? {
            let items = calendar.components.filter { $0.name != "VTIMEZONE" }
            guard items.allSatisfy({ $0.name == "VTODO" }) else { return nil }
            return items.sorted { ($0.first("RECURRENCE-ID")?.value ?? "") < ($1.first("RECURRENCE-ID")?.value ?? "") }.map { todo in
                todo.properties
                    .filter { !completionProperties.contains($0.name) && !bookkeeping.contains($0.name) && !$0.name.hasPrefix("X-") }
                    .sorted { ($0.name, $0.value) < ($1.name, $1.value) }
            }
        }
        guard let before = comparable(current), let after = comparable(proposed) else { return false }
        return before == after
    }

    /// The feed's new version of a to-do with the person's completion and alarms carried over.
    public static func carryingCompletion(from local: Component, into feed: Component) -> Component {
        guard let localTodo = local.components.first(where: { $0.name == "VTODO" && $0.isMaster }),
              let index = feed.components.firstIndex(where: { $0.name == "VTODO" && $0.isMaster })
        else { return feed }
        var result = feed
        var todo = result.components[index]
        for name in completionProperties.sorted() {
            todo.remove(name)
            todo.properties += localTodo.all(name)
        }
        todo.components = todo.components.filter { $0.name != "VALARM" } + localTodo.components.filter { $0.name == "VALARM" }
        result.components[index] = todo
        return result
    }
}
