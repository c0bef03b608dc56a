/// `<d:sync-collection>` (RFC 6578 §3.2, §6.1).
public struct SyncCollectionReport: Sendable, Hashable {
    public enum Level: String, Sendable, Hashable {
        case one = "1"
        case infinite
    }

    /// The token from the last sync, or nil for an initial sync (an empty `<sync-token/>`).
    /// The server answers a token it did not issue with `valid-sync-token` (403).
    public var syncToken: String?
    public var level: Level
    /// `<d:limit><d:nresults>`: the most responses the client wants.
    public var limit: Int?
    public var properties: PropertySelection
    public var calendarData: CalendarDataRequest?

    public init(
        syncToken: String?, level: Level = .one, limit: Int? = nil, properties: PropertySelection,
        calendarData: CalendarDataRequest? = nil
    ) {
        self.syncToken = syncToken
        self.level = level
        self.limit = limit
        self.properties = properties
        self.calendarData = calendarData
    }

    public init(element: DAVElement) throws(DAVError) {
        guard element.name == .syncCollection else {
            throw DAVError.unexpected("Expected <\(QualifiedName.syncCollection)>, not <\(element.name)>.")
        }
        guard let tokenElement = element.first(.syncToken) else {
            throw DAVError.unexpected("A sync-collection needs a <DAV:sync-token> (empty for an initial sync).")
        }
        let token = tokenElement.trimmedText
        var level = Level.one
        // Some older clients omit sync-level; RFC 6578 §3.2 defines only "1" and "infinite".
        if let levelElement = element.first(.syncLevel) {
            let raw = levelElement.trimmedText
            guard let parsed = Level(rawValue: raw) else {
                throw DAVError.invalidValue("sync-level must be \"1\" or \"infinite\", not \"\(raw)\".")
            }
            level = parsed
        }
        var limit: Int?
        if let limitElement = element.first(.limit) {
            let raw = limitElement.first(.nresults)?.trimmedText ?? ""
            guard let count = Int(raw), count > 0 else {
                throw DAVError.invalidValue("<limit> must hold <nresults> with a positive integer, not \"\(raw)\".")
            }
            limit = count
        }
        self.init(
            syncToken: token.isEmpty ? nil : token, level: level, limit: limit,
            properties: PropertySelection.parse(in: element) ?? .properties([]),
            calendarData: try CalendarDataRequest.parse(in: element))
    }
}
