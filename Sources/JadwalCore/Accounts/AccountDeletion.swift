import Foundation

/// Deleting an account and everything in it, in one transaction: its calendars with their
/// objects and change logs, shares both ways, chats, keys, devices, app passwords, feeds,
/// connected CalDAV accounts, the WhatsApp link, sessions, goals, the tracker and notifications
/// (every row that references the account goes with it), the jobs still queued about it, what
/// names its address without belonging to it, and its traces in other people's records (the
/// notices of what it shared, their conflicts with its shared calendars). A last email, sealed
/// in the queue so nothing of the account is readable there, says it is done.
///
/// The person confirms by typing the account's address, or with a link emailed to it (a fresh
/// proof that they hold the mailbox); the operator deletes by address (`jadwal user delete`).
public struct AccountDeletion: Sendable {
    public struct Notices: Sendable {
        /// To the account's address: the link that confirms deleting it.
        public var confirmation: @Sendable (_ token: SecretToken, _ account: Account, _ now: Date) throws -> Job
        /// The last email, to the address the account had.
        public var deleted: @Sendable (_ account: Account, _ now: Date) throws -> Job

        public init(
            confirmation: @escaping @Sendable (SecretToken, Account, Date) throws -> Job,
            deleted: @escaping @Sendable (Account, Date) throws -> Job
        ) {
            self.confirmation = confirmation
            self.deleted = deleted
        }
    }

    /// How the person said they mean it.
    public enum Confirmation: Sendable {
        /// The account's address, typed (compared as addresses are: without case or spaces).
        case typedEmail(String)
        /// The token of a deletion link emailed to the account.
        case link(SecretToken)
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case noAccount
        /// The typed address is not the account's.
        case emailMismatch
        case unknownLink
        case expiredLink
        case usedLink
        case rateLimited(retryAfterSeconds: Int)

        public var description: String {
            switch self {
            case .noAccount: "there is no such account"
            case .emailMismatch: "the address typed is not this account's address"
            case .unknownLink: "this link is not valid"
            case .expiredLink: "this link has expired; ask for a new one"
            case .usedLink: "this link was used already"
            case .rateLimited(let seconds): "too many links asked for; try again in \(seconds) seconds"
            }
        }
    }

    let store: StoreAccess<any StoreTransaction>
    let clock: Clock
    let random: RandomSource
    let notices: Notices

    public init(store: any Store, clock: Clock, random: RandomSource, notices: Notices) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        self.notices = notices
    }

    /// Emails the account a one-time link that deletes it once opened and confirmed.
    public func requestLink(accountID: UUID) async throws {
        let now = clock.now
        let token = SecretToken(random: random)
        let notices = self.notices
        try await store.transaction { tx in
            guard let account = try await tx.account(id: accountID) else { throw Problem.noAccount }
            let asked = try await tx.accountLinkRequests(accountID: accountID, purpose: .deletion, since: now - AccountLinkRecord.rateWindow)
            if asked.count >= AccountLinkRecord.perWindow, let oldest = asked.first {
                throw Problem.rateLimited(retryAfterSeconds: SignIn.secondsUntil(oldest + AccountLinkRecord.rateWindow, from: now))
            }
            try await tx.insertAccountLink(AccountLinkRecord(
                digest: token.digest, accountID: accountID, purpose: .deletion, createdAt: now, expiresAt: now + AccountLinkRecord.lifetime))
            try await tx.enqueue(notices.confirmation(token, account, now))
        }
    }

    /// The account a deletion link would delete, without spending it: what its page names.
    public func account(forLink token: SecretToken) async throws -> Account {
        let now = clock.now
        return try await store.read { tx in try await Self.open(token, now: now, tx: tx) }
    }

    /// Deletes the signed-in person's account once they confirmed; the account as it was.
    /// A link confirms the account it was sent for only.
    @discardableResult
    public func delete(accountID: UUID, confirmation: Confirmation) async throws -> Account {
        let now = clock.now
        return try await store.transaction { tx in
            guard let account = try await tx.account(id: accountID) else { throw Problem.noAccount }
            switch confirmation {
            case .typedEmail(let typed):
                guard (try? EmailAddress(typed)) == account.email else { throw Problem.emailMismatch }
            case .link(let token):
                guard try await Self.open(token, now: now, tx: tx).id == accountID else { throw Problem.unknownLink }
            }
            try await self.remove(account, now: now, tx: tx)
            return account
        }
    }

    /// Deletes the account a deletion link was sent for (opened on any device: the link is the proof).
    @discardableResult
    public func delete(link token: SecretToken) async throws -> Account {
        let now = clock.now
        return try await store.transaction { tx in
            let account = try await Self.open(token, now: now, tx: tx)
            try await self.remove(account, now: now, tx: tx)
            return account
        }
    }

    /// The operator's deletion (`jadwal user delete`): no confirmation beyond the command's own.
    @discardableResult
    public func delete(email: EmailAddress) async throws -> Account {
        let now = clock.now
        return try await store.transaction { tx in
            guard let account = try await tx.account(email: email) else { throw Problem.noAccount }
            try await self.remove(account, now: now, tx: tx)
            return account
        }
    }

    private static func open(_ token: SecretToken, now: Date, tx: any AccountOwnershipStore & AccountStore) async throws -> Account {
        guard let link = try await tx.accountLink(digest: token.digest), link.purpose == .deletion else { throw Problem.unknownLink }
        guard link.usedAt == nil else { throw Problem.usedLink }
        guard link.expiresAt > now else { throw Problem.expiredLink }
        guard let account = try await tx.account(id: link.accountID) else { throw Problem.unknownLink }
        return account
    }

    /// Everything of the account, in the caller's transaction.
    func remove(_ account: Account, now: Date, tx: any StoreTransaction) async throws {
        let calendars = try await tx.calendars(accountID: account.id)
        let calendarIDs = Set(calendars.map(\.id))
        let outgoing = try await tx.outgoingCalendarShares(ownerID: account.id)
        let incoming = try await tx.incomingCalendarShares(email: account.email, accountID: account.id)
        // Every id a queued job or another person's notice may name the account's things by.
        var mentions = [account.id] + Array(calendarIDs) + outgoing.map(\.id) + incoming.map(\.share.id)
        mentions += try await tx.chatConversations(accountID: account.id).map(\.id)
        mentions += try await tx.calendarSubscriptions(accountID: account.id).map(\.id)
        mentions += try await tx.caldavAccounts(accountID: account.id).map(\.id)

        // People it shared calendars with keep their own conflicts, without its events in them.
        var recheck: [ConflictCheck.Request] = []
        for shareeID in Set(outgoing.compactMap(\.shareeID)) where shareeID != account.id {
            for var conflict in try await tx.conflicts(accountID: shareeID, includeResolved: true) {
                let kept = conflict.overlaps.filter { overlap in overlap.calendarID.map { !calendarIDs.contains($0) } ?? true }
                guard kept.count != conflict.overlaps.count else { continue }
                conflict.overlaps = kept
                if conflict.status == .open {
                    if kept.isEmpty {
                        conflict.status = .obsolete
                        conflict.resolvedAt = now
                    } else {
                        let request = ConflictCheck.Request(
                            accountID: shareeID, calendarID: conflict.event.calendarID, objectName: conflict.event.objectName,
                            source: conflict.source, recheckOthers: false)
                        if !recheck.contains(request) { recheck.append(request) }
                    }
                }
                try await tx.updateConflict(conflict)
            }
        }
        try await tx.forgetMentions(of: mentions.map { $0.uuidString })
        try await tx.forgetEmailAddress(account.email)
        try await tx.deleteAccount(id: account.id)
        for request in recheck { try await tx.enqueue(request.job(now: now, random: random)) }
        try await tx.enqueue(notices.deleted(account, now))
    }
}
