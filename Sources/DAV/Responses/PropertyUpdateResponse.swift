/// The answers to PROPPATCH (RFC 4918 §9.2) and to a failed MKCALENDAR / extended MKCOL
/// (RFC 4791 §5.3.1, RFC 5689 §5.2), all of which report per-property outcomes atomically.
public enum PropertyUpdateResponse {
    /// The outcome the server decided for one property.
    public struct Outcome: Sendable, Hashable {
        public var name: PropertyName
        /// 200 when it would succeed, otherwise the failure (403 protected, 409 bad value, 507, …).
        public var status: Int
        /// A precondition for this property, e.g. `<c:valid-calendar-timezone/>`, in the propstat's error.
        public var error: DAVElement?
        public var responseDescription: String?

        public init(name: PropertyName, status: Int, error: DAVElement? = nil, responseDescription: String? = nil) {
            self.name = name
            self.status = status
            self.error = error
            self.responseDescription = responseDescription
        }
    }

    /// Propstats for the outcomes. Because the update is atomic, when any property failed every
    /// property that would have succeeded is reported as 424 Failed Dependency instead of 200
    /// (RFC 4918 §9.2.1). Each name appears once, at its last outcome.
    public static func propstats(_ outcomes: [Outcome]) -> [Multistatus.PropStat] {
        var last: [PropertyName: Outcome] = [:]
        var order: [PropertyName] = []
        for outcome in outcomes {
            if last.updateValue(outcome, forKey: outcome.name) == nil { order.append(outcome.name) }
        }
        let failed = last.values.contains { !(200..<300).contains($0.status) }
        // Group by (status, error, description) so distinct failure reasons stay separate.
        struct Key: Hashable { var status: Int; var error: DAVElement?; var description: String? }
        var groups: [Key: [DAVElement]] = [:]
        var keys: [Key] = []
        for name in order {
            guard let outcome = last[name] else { continue }
            let succeeded = (200..<300).contains(outcome.status)
            let key = failed && succeeded
                ? Key(status: 424, error: nil, description: nil)
                : Key(status: outcome.status, error: outcome.error, description: outcome.responseDescription)
            if groups[key] == nil { keys.append(key) }
            groups[key, default: []].append(DAVElement(name))
        }
        return keys.sorted { $0.status < $1.status }.map {
            Multistatus.PropStat(status: $0.status, properties: groups[$0] ?? [], error: $0.error, responseDescription: $0.description)
        }
    }

    /// Whether the outcomes allow the change to be applied (every property succeeded).
    public static func succeeded(_ outcomes: [Outcome]) -> Bool {
        outcomes.allSatisfy { (200..<300).contains($0.status) }
    }

    /// The PROPPATCH 207 body for one resource.
    public static func proppatch(href: String, outcomes: [Outcome]) -> Multistatus {
        Multistatus(responses: [Multistatus.Response(href: href, content: .propstats(propstats(outcomes)))])
    }

    /// The body of a failed MKCALENDAR (`<c:mkcalendar-response>`) or extended MKCOL
    /// (`<d:mkcol-response>`): propstats directly under the root, no href.
    public static func collectionCreationFailure(_ method: CollectionCreationRequest.Method, outcomes: [Outcome]) -> DAVElement {
        DAVElement(method == .mkcalendar ? .mkcalendarResponse : .mkcolResponse, elements: propstats(outcomes).map(\.element))
    }
}
