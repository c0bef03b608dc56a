import Foundation

/// What a person is told and how: the feed with its unread count and read marks, what a live
/// stream has not sent yet, the channel and quiet-hour choices, and the devices pushed to. The
/// JSON API, the web app and the stream only adapt it; posting goes through `NotificationDispatch`.
public struct Notifications: Sendable {
    let store: StoreAccess<any AccountStore & CalendarStore & NotificationStore>
    let clock: Clock
    let random: RandomSource

    public init(store: any Store, clock: Clock, random: RandomSource) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case tooManyIDs(limit: Int)
        case invalidDeviceName
        case noDevice

        public var description: String {
            switch self {
            case .tooManyIDs(let limit): "at most \(limit) notification ids at a time"
            case .invalidDeviceName: "a device's name must be at most \(PushDevice.nameLimit) characters without control characters"
            case .noDevice: "no such device"
            }
        }
    }

    public static let readLimit = 500

    /// Delivered notifications, newest first (before `beforeSequence` when given), and the unread count.
    public func feed(accountID: UUID, beforeSequence: Int64?, unreadOnly: Bool, limit: Int) async throws -> ([AccountNotification], unread: Int) {
        let now = clock.now
        return try await store.read { tx in
            (try await tx.notifications(accountID: accountID, deliveredBy: now, beforeSequence: beforeSequence, unreadOnly: unreadOnly, limit: limit),
             try await tx.unreadNotificationCount(accountID: accountID, deliveredBy: now))
        }
    }

    public func unreadCount(accountID: UUID) async throws -> Int {
        let now = clock.now
        return try await store.read { tx in try await tx.unreadNotificationCount(accountID: accountID, deliveredBy: now) }
    }

    /// Marks these read (unknown or others' ids are ignored): how many changed, and the unread count after.
    public func markRead(ids: [UUID], accountID: UUID) async throws -> (marked: Int, unread: Int) {
        guard ids.count <= Self.readLimit else { throw Problem.tooManyIDs(limit: Self.readLimit) }
        let now = clock.now
        return try await store.transaction { tx in
            (try await tx.markNotificationsRead(ids: ids, accountID: accountID, at: now), try await tx.unreadNotificationCount(accountID: accountID, deliveredBy: now))
        }
    }

    public func markAllRead(accountID: UUID) async throws -> Int {
        let now = clock.now
        return try await store.transaction { tx in try await tx.markAllNotificationsRead(accountID: accountID, at: now) }
    }

    // MARK: Live streams

    /// The sequence of the newest notification delivered now (0 for none): where a new stream starts.
    public func newestSequence(accountID: UUID) async throws -> Int64 {
        let now = clock.now
        return try await store.read { tx in
            try await tx.notifications(accountID: accountID, deliveredBy: now, beforeSequence: nil, unreadOnly: false, limit: 1).first?.sequence ?? 0
        }
    }

    /// Delivered notifications after `sequence`, oldest first, and when the next one held by
    /// quiet hours comes due (when a stream must look again).
    public func delivered(after sequence: Int64, accountID: UUID, limit: Int) async throws -> ([AccountNotification], nextHeld: Date?, now: Date) {
        let now = clock.now
        let (batch, nextHeld) = try await store.read { tx in
            (try await tx.notifications(accountID: accountID, deliveredBy: now, afterSequence: sequence, limit: limit),
             try await tx.nextHeldNotification(accountID: accountID, after: now))
        }
        return (batch, nextHeld, now)
    }

    // MARK: Settings

    public func settings(accountID: UUID) async throws -> NotificationSettings {
        try await store.read { tx in try await tx.notificationSettings(accountID: accountID) }
    }

    public func updateSettings(_ change: NotificationSettingsChange, accountID: UUID) async throws -> NotificationSettings {
        let now = clock.now
        return try await store.transaction { tx in
            let updated = try change.applied(to: try await tx.notificationSettings(accountID: accountID))
            try await tx.saveNotificationSettings(updated, accountID: accountID, at: now)
            return updated
        }
    }

    // MARK: Devices

    /// Registers a device's push token (already checked by the push channel) under a name.
    public func registerDevice(token: String, name rawName: String?, accountID: UUID) async throws -> PushDevice {
        let name = (rawName ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard name.count <= PushDevice.nameLimit, !name.containsControlCharacters else { throw Problem.invalidDeviceName }
        let now = clock.now
        return try await store.transaction { tx in
            try await tx.savePushDevice(PushDevice(id: random.uuid(), accountID: accountID, token: token, name: name.isEmpty ? "Apple device" : name, createdAt: now))
        }
    }

    public func devices(accountID: UUID) async throws -> [PushDevice] {
        try await store.read { tx in try await tx.pushDevices(accountID: accountID) }
    }

    public func removeDevice(id: UUID, accountID: UUID) async throws {
        guard try await store.transaction({ tx in try await tx.deletePushDevice(id: id, accountID: accountID) }) else { throw Problem.noDevice }
    }
}

/// A change to notification settings; anything not given keeps its value.
public struct NotificationSettingsChange: Decodable, Sendable {
    public var email: [String]?
    public var push: [String]?
    public var quietDuringSleep: Bool?
    public var quietDuringPrayer: Bool?

    public init(email: [String]? = nil, push: [String]? = nil, quietDuringSleep: Bool? = nil, quietDuringPrayer: Bool? = nil) {
        self.email = email
        self.push = push
        self.quietDuringSleep = quietDuringSleep
        self.quietDuringPrayer = quietDuringPrayer
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// `field` names a kind of notification that does not exist.
        case unknownKind(field: String, name: String)

        public var description: String {
            switch self {
            case .unknownKind(let field, let name):
                "'\(field)': '\(name)' is not a kind of notification (\(NotificationKind.allCases.map(\.rawValue).joined(separator: ", ")))"
            }
        }
    }

    public func applied(to settings: NotificationSettings) throws(Problem) -> NotificationSettings {
        func kinds(_ names: [String], field: String) throws(Problem) -> Set<NotificationKind> {
            var found: Set<NotificationKind> = []
            for name in names {
                guard let kind = NotificationKind(rawValue: name) else { throw .unknownKind(field: field, name: name) }
                found.insert(kind)
            }
            return found
        }
        var updated = settings
        if let email { updated.emailKinds = try kinds(email, field: "email") }
        if let push { updated.pushKinds = try kinds(push, field: "push") }
        if let quietDuringSleep { updated.quietDuringSleep = quietDuringSleep }
        if let quietDuringPrayer { updated.quietDuringPrayer = quietDuringPrayer }
        return updated
    }
}
