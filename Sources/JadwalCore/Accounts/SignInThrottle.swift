import Foundation

/// Failed password sign-ins (CalDAV's HTTP Basic) counted per client address and per account
/// name. A few failures are free; after them each failure makes the next try wait, twice as long
/// every time, and a try during the wait is answered 429 with `Retry-After` without checking the
/// password. The counts live in the database, so instances sharing it share them.
public struct SignInThrottle: Sendable {
    public struct Policy: Sendable {
        /// Failures from one address before it must wait: generous, since an office or a phone
        /// network puts many people behind one address.
        public var freeFailuresPerAddress = 20
        /// Failures against one account name before it must wait.
        public var freeFailuresPerAccount = 5
        /// The wait after the last free failure; each further failure doubles it.
        public var firstWait: Swift.Duration = .seconds(1)
        public var longestWait: Swift.Duration = .seconds(15 * 60)
        /// Failures are forgotten after this long without another.
        public var memory: Swift.Duration = .seconds(3600)

        public init() {}
    }

    /// What one sign-in attempt is counted under.
    public struct Keys: Sendable, Equatable {
        public var address: String?
        public var account: String

        /// `account` is the account's email (or the user name as typed when it is none);
        /// `clientAddress` the caller's address as the server sees it.
        public init(account: String, clientAddress: String?) {
            self.account = "account:" + String(account.lowercased().prefix(320))
            address = clientAddress.map { "address:" + SignInThrottle.addressGroup($0) }
        }

        public var all: [String] { [address, account].compactMap { $0 } }
    }

    public let policy: Policy

    public init(policy: Policy = Policy()) {
        self.policy = policy
    }

    /// Seconds until `keys` may try again, or nil when they may try now.
    public func retryAfter(_ keys: Keys, records: [SignInFailures], now: Date) -> Int? {
        var until: Date?
        for record in records where now.timeIntervalSince(record.lastFailureAt) < policy.memory.timeInterval {
            let free = record.key == keys.account ? policy.freeFailuresPerAccount : policy.freeFailuresPerAddress
            guard let wait = wait(afterFailures: record.failures, free: free) else { continue }
            let end = record.lastFailureAt + wait
            if end > now, end > (until ?? .distantPast) { until = end }
        }
        return until.map { SignIn.secondsUntil($0, from: now) }
    }

    /// How long the next try waits after `failures`, or nil while they are free.
    func wait(afterFailures failures: Int, free: Int) -> TimeInterval? {
        guard failures >= free else { return nil }
        let doublings = min(failures - free, 40)
        return min(policy.firstWait.timeInterval * pow(2, Double(doublings)), policy.longestWait.timeInterval)
    }

    /// The part of an address one party controls: an IPv4 address, or an IPv6 address's /64
    /// (one home or phone gets a whole /64 and could walk through it).
    static func addressGroup(_ address: String) -> String {
        let trimmed = address.trimmingCharacters(in: .whitespaces).lowercased()
        guard trimmed.contains(":") else { return trimmed }
        // An IPv4 address mapped into IPv6 (::ffff:192.0.2.1) is that IPv4 address.
        if let last = trimmed.split(separator: ":").last, last.contains(".") { return String(last) }
        let halves = trimmed.components(separatedBy: "::")
        let head = halves[0].isEmpty ? [] : halves[0].split(separator: ":").map(String.init)
        let tail = halves.count > 1 && !halves[1].isEmpty ? halves[1].split(separator: ":").map(String.init) : []
        let zeros = [String](repeating: "0", count: max(0, 8 - head.count - tail.count))
        let groups = (head + (halves.count > 1 ? zeros : []) + tail).prefix(4)
        return groups.map { String(Int($0, radix: 16) ?? 0, radix: 16) }.joined(separator: ":") + "::/64"
    }
}

/// Failed sign-ins counted under one key, as stored.
public struct SignInFailures: Sendable, Equatable {
    public var key: String
    public var failures: Int
    public var lastFailureAt: Date

    public init(key: String, failures: Int, lastFailureAt: Date) {
        self.key = key
        self.failures = failures
        self.lastFailureAt = lastFailureAt
    }
}
