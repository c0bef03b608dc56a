import Foundation

/// What one account's calendars hold, as storage keeps count of it.
public struct StoredUsage: Sendable, Equatable {
    public var calendars: Int
    public var objects: Int
    /// Bytes of iCalendar text.
    public var bytes: Int64

    public init(calendars: Int, objects: Int, bytes: Int64) {
        self.calendars = calendars
        self.objects = objects
        self.bytes = bytes
    }
}

/// How much one account may store, so no account can fill the disk or the database that every
/// other account shares. Checked in the transaction of each write that grows the account;
/// writes that shrink or keep its size always go through, so a full account can make room.
public struct AccountQuota: Sendable, Equatable {
    /// Bytes of iCalendar across the account's calendars (also advertised as CalDAV's
    /// `quota-available-bytes`).
    public var bytes: Int64 = 1 << 30
    /// Calendar objects (events, to-dos, journal entries) across the account's calendars.
    public var objects: Int = 100_000
    /// Calendars, subscriptions and connected calendars included.
    public var calendars: Int = 200

    public init() {}

    public init(bytes: Int64, objects: Int, calendars: Int) {
        self.bytes = bytes
        self.objects = objects
        self.calendars = calendars
    }

    /// A write refused because the account is full: nothing was written.
    public struct Exceeded: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Limit: String, Sendable, Equatable {
            case bytes, objects, calendars
        }

        public var limit: Limit
        public var allowed: Int64
        public var used: Int64

        public init(limit: Limit, allowed: Int64, used: Int64) {
            self.limit = limit
            self.allowed = allowed
            self.used = used
        }

        public var description: String {
            switch limit {
            case .bytes:
                "this account's calendars may hold \(Self.megabytes(allowed)) of data and hold \(Self.megabytes(used)); delete events or calendars to make room"
            case .objects:
                "this account may hold \(allowed) events and to-dos and holds \(used); delete some to make room"
            case .calendars:
                "this account may have \(allowed) calendars (subscriptions and connected ones included) and has \(used); delete one to make room"
            }
        }

        public static func megabytes(_ bytes: Int64) -> String {
            bytes >= 1 << 20 ? "\(bytes / (1 << 20)) MiB" : "\(bytes) bytes"
        }
    }

    /// Refuses a write that adds `objects` objects and `bytes` bytes (either may be negative)
    /// to an account storing `usage` (read in the write's transaction), if that takes it past a
    /// limit it is not already shrinking from.
    public func check(adding objects: Int, bytes: Int64, to usage: StoredUsage) throws {
        if objects > 0, usage.objects + objects > self.objects {
            throw Exceeded(limit: .objects, allowed: Int64(self.objects), used: Int64(usage.objects))
        }
        if bytes > 0, usage.bytes + bytes > self.bytes {
            throw Exceeded(limit: .bytes, allowed: self.bytes, used: usage.bytes)
        }
    }

    /// Refuses one more calendar past the limit.
    public func checkNewCalendar(for accountID: UUID, tx: any CalendarStore) async throws {
        let usage = try await tx.storedUsage(accountID: accountID)
        if usage.calendars + 1 > calendars {
            throw Exceeded(limit: .calendars, allowed: Int64(calendars), used: Int64(usage.calendars))
        }
    }
}
