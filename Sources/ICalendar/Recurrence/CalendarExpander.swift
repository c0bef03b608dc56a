/// Expands the components of a calendar over a window [start, end) of UTC instants.
public struct CalendarExpander: Sendable {
    public var calendar: Component
    public var resolver: TimeZoneResolver
    public var options: ExpansionOptions

    public init(calendar: Component, options: ExpansionOptions = ExpansionOptions()) {
        self.calendar = calendar
        self.resolver = TimeZoneResolver(calendar: calendar)
        self.options = options
    }

    public func expand(from windowStart: Int64, to windowEnd: Int64) -> ExpansionResult {
        var groups: [String: [Component]] = [:]
        var order: [String] = []
        var anonymous = 0
        for component in calendar.components where options.componentNames.contains(component.name) {
            var uid = component.first("UID")?.value ?? ""
            if uid.isEmpty {
                anonymous += 1
                uid = "\u{0}anonymous-\(anonymous)"
            }
            if groups[uid] == nil { order.append(uid) }
            groups[uid, default: []].append(component)
        }
        var all: [Occurrence] = []
        var truncated = false
        var problems: [ICalendarError] = []
        for uid in order {
            guard let components = groups[uid] else { continue }
            let set = RecurrenceSet(uid: uid.hasPrefix("\u{0}") ? "" : uid, components: components)
            let remaining = options.maxInstances - all.count
            if remaining <= 0 { truncated = true; break }
            do {
                let result = try set.occurrences(from: windowStart, to: windowEnd, resolver: resolver, options: options, limit: remaining)
                all.append(contentsOf: result.occurrences)
                truncated = truncated || result.truncated
            } catch let error as ICalendarError {
                problems.append(error)
            } catch {
                problems.append(ICalendarError(.invalidValue, "\(error)"))
            }
        }
        // Sort keys, not the (large) occurrences themselves.
        let starts = all.map(\.start.sortSeconds), ends = all.map(\.end.sortSeconds), uids = all.map(\.uid)
        let sortedIndices = all.indices.sorted { a, b in
            if starts[a] != starts[b] { return starts[a] < starts[b] }
            if uids[a] != uids[b] { return uids[a] < uids[b] }
            return ends[a] < ends[b]
        }
        let sorted = sortedIndices.map { all[$0] }
        return ExpansionResult(occurrences: sorted, truncated: truncated, problems: problems)
    }
}
