import Foundation

/// A calendar's sync token: its id and revision in a URI, as RFC 6578 asks (tokens are URIs).
/// Clients treat it as opaque; we read the revision back to answer "what changed since".
public struct SyncToken: Sendable, Hashable, CustomStringConvertible {
    public static let prefix = "https://jadwal.invalid/sync/"

    public var calendarID: UUID
    public var revision: Int64

    public init(calendarID: UUID, revision: Int64) {
        self.calendarID = calendarID
        self.revision = revision
    }

    /// Reads a token a client sent; nil for anything we did not issue (answered with `valid-sync-token`).
    public init?(_ text: String) {
        guard text.hasPrefix(Self.prefix) else { return nil }
        let parts = text.dropFirst(Self.prefix.count).split(separator: "/")
        guard parts.count == 2, let id = UUID(uuidString: String(parts[0])), let revision = Int64(parts[1]), revision >= 0 else { return nil }
        calendarID = id
        self.revision = revision
    }

    public var description: String { "\(Self.prefix)\(calendarID.uuidString)/\(revision)" }
}

/// The answer to "what changed since this revision": each resource once, in its latest state.
public struct ChangeSet: Sendable, Hashable {
    /// The last change of each resource, oldest first (what sync-collection reports, and how it
    /// pages when the client sets a limit).
    public var latest: [CalendarChange]
    public var revision: Int64

    public var written: [String] { latest.filter { $0.kind == .written }.map(\.name) }
    public var deleted: [String] { latest.filter { $0.kind == .deleted }.map(\.name) }

    /// Folds a change log (in revision order) to the latest change per resource.
    public init(changes: [CalendarChange], currentRevision: Int64) {
        var latest: [String: CalendarChange] = [:]
        for change in changes { latest[change.name] = change }
        self.latest = latest.values.sorted { $0.revision < $1.revision }
        revision = currentRevision
    }
}
