import Foundation

/// What a CalDAV URL path names (DESIGN.md "Data"): the server root, a principal, its
/// scheduling Inbox and Outbox, a calendar home, a calendar or a calendar object. `<user>` is the
/// account's id in lower case.
public enum DAVTarget: Sendable, Hashable {
    /// `/` and `/dav/`: where discovery starts (current-user-principal).
    case root
    case principals
    case principal(UUID)
    /// `/dav/principals/<user>/inbox/` and `…/outbox/` (RFC 6638 §2.1–2.2): beside the principal,
    /// not in the calendar home, so they never collide with a calendar's slug.
    case scheduleInbox(UUID)
    case scheduleOutbox(UUID)
    /// A message delivered into the Inbox: `/dav/principals/<user>/inbox/<name>`.
    case inboxItem(UUID, name: String)
    /// Apple's notification collection (`CS:notification-URL`): the calendar sharing invitations
    /// waiting for an answer, `/dav/principals/<user>/notifications/`, and one of them.
    case notifications(UUID)
    case notification(UUID, name: String)
    case calendarHomes
    case home(UUID)
    case calendar(UUID, slug: String)
    case object(UUID, slug: String, name: String)

    public static let prefix = "/dav/"

    /// Parses a request path (percent-encoded, as on the wire). Nil for paths outside the DAV
    /// space or with more segments than any resource has: those are 404.
    public init?(path rawPath: String) {
        guard let path = rawPath.removingPercentEncodingIfValid else { return nil }
        if path == "/" || path == "/dav" || path == "/dav/" {
            self = .root
            return
        }
        guard path.hasPrefix(Self.prefix) else { return nil }
        let segments = path.dropFirst(Self.prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // A trailing slash leaves one empty segment; empty segments elsewhere ("//") are not ours.
        let trimmed = segments.last == "" ? Array(segments.dropLast()) : segments
        guard !trimmed.contains("") else { return nil }
        switch (trimmed.first, trimmed.count) {
        case ("principals", 1): self = .principals
        case ("principals", 2):
            guard let id = UUID(uuidString: trimmed[1]) else { return nil }
            self = .principal(id)
        case ("principals", 3):
            guard let id = UUID(uuidString: trimmed[1]) else { return nil }
            switch trimmed[2] {
            case DAVHref.inboxSegment: self = .scheduleInbox(id)
            case DAVHref.outboxSegment: self = .scheduleOutbox(id)
            case DAVHref.notificationsSegment: self = .notifications(id)
            default: return nil
            }
        case ("principals", 4):
            guard let id = UUID(uuidString: trimmed[1]), segments.last != "" else { return nil }
            switch trimmed[2] {
            case DAVHref.inboxSegment: self = .inboxItem(id, name: trimmed[3])
            case DAVHref.notificationsSegment: self = .notification(id, name: trimmed[3])
            default: return nil
            }
        case ("calendars", 1): self = .calendarHomes
        case ("calendars", 2):
            guard let id = UUID(uuidString: trimmed[1]) else { return nil }
            self = .home(id)
        case ("calendars", 3):
            guard let id = UUID(uuidString: trimmed[1]) else { return nil }
            self = .calendar(id, slug: trimmed[2])
        case ("calendars", 4):
            guard let id = UUID(uuidString: trimmed[1]), segments.last != "" else { return nil }
            self = .object(id, slug: trimmed[2], name: trimmed[3])
        default:
            return nil
        }
    }

    /// The account the resource belongs to; nil for the shared entry points.
    public var owner: UUID? {
        switch self {
        case .root, .principals, .calendarHomes: nil
        case .principal(let id), .scheduleInbox(let id), .scheduleOutbox(let id), .inboxItem(let id, _), .notifications(let id),
             .notification(let id, _), .home(let id), .calendar(let id, _), .object(let id, _, _): id
        }
    }

    /// The route's shape for metrics, without ids.
    public var metricsPath: String {
        switch self {
        case .root: "/dav/"
        case .principals: "/dav/principals/"
        case .principal: "/dav/principals/{user}/"
        case .scheduleInbox: "/dav/principals/{user}/inbox/"
        case .scheduleOutbox: "/dav/principals/{user}/outbox/"
        case .inboxItem: "/dav/principals/{user}/inbox/{message}"
        case .notifications: "/dav/principals/{user}/notifications/"
        case .notification: "/dav/principals/{user}/notifications/{notification}"
        case .calendarHomes: "/dav/calendars/"
        case .home: "/dav/calendars/{user}/"
        case .calendar: "/dav/calendars/{user}/{calendar}/"
        case .object: "/dav/calendars/{user}/{calendar}/{object}"
        }
    }
}

/// The hrefs Jadwal writes: absolute paths, each segment percent-encoded.
public enum DAVHref {
    public static let root = "/dav/"
    public static let principals = "/dav/principals/"

    public static func principal(_ account: UUID) -> String { "/dav/principals/\(account.uuidString.lowercased())/" }
    public static let inboxSegment = "inbox"
    public static let outboxSegment = "outbox"
    public static func scheduleInbox(_ account: UUID) -> String { principal(account) + inboxSegment + "/" }
    public static func scheduleOutbox(_ account: UUID) -> String { principal(account) + outboxSegment + "/" }
    public static let notificationsSegment = "notifications"
    public static func notifications(_ account: UUID) -> String { principal(account) + notificationsSegment + "/" }
    public static func home(_ account: UUID) -> String { "/dav/calendars/\(account.uuidString.lowercased())/" }
    public static func calendar(_ account: UUID, _ slug: String) -> String { home(account) + encode(slug) + "/" }
    public static func object(_ account: UUID, _ slug: String, _ name: String) -> String { calendar(account, slug) + encode(name) }

    public static func href(for target: DAVTarget) -> String {
        switch target {
        case .root: root
        case .principals: principals
        case .principal(let id): principal(id)
        case .scheduleInbox(let id): scheduleInbox(id)
        case .scheduleOutbox(let id): scheduleOutbox(id)
        case .inboxItem(let id, let name): scheduleInbox(id) + encode(name)
        case .notifications(let id): notifications(id)
        case .notification(let id, let name): notifications(id) + encode(name)
        case .calendarHomes: "/dav/calendars/"
        case .home(let id): home(id)
        case .calendar(let id, let slug): calendar(id, slug)
        case .object(let id, let slug, let name): object(id, slug, name)
        }
    }

    /// RFC 3986 pchar without the sub-delims that some clients mishandle in hrefs.
    private static let segmentCharacters: CharacterSet = {
        var set = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        set.insert(charactersIn: "-._~@:")
        return set
    }()

    public static func encode(_ segment: String) -> String {
        // Most names (UUIDs, slugs) need no escaping; Foundation's encoder is slow enough to show
        // in a query's profile, so it only runs for names that need it.
        var plain = true
        for byte in segment.utf8 where !isPlain(byte) {
            plain = false
            break
        }
        if plain { return segment }
        return segment.addingPercentEncoding(withAllowedCharacters: segmentCharacters) ?? segment
    }

    /// The bytes of `segmentCharacters`, tested without Foundation.
    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E, 0x40, 0x3A: true
        default: false
        }
    }

    /// The path of an href a client sent: absolute URLs (multiget, MOVE's Destination) are
    /// reduced to their path; the host is not checked, as clients behind proxies differ.
    public static func path(of href: String) -> String {
        if href.hasPrefix("/") { return href }
        guard let components = URLComponents(string: href), components.scheme != nil else { return href }
        return components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
    }
}

extension String {
    /// Percent-decoding that refuses malformed escapes instead of passing them through.
    public var removingPercentEncodingIfValid: String? {
        contains("%") ? removingPercentEncoding : self
    }
}
