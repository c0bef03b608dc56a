import Foundation

/// Moving an account to another sign-in address. The person asks while signed in; a one-time
/// link goes to the new address, and opening it makes the change and tells the old address.
///
/// Asking answers the same whether or not another account has the new address (sign-in reveals
/// no more either): when one has, the new address gets a note that nothing changed instead of a
/// link. The address is checked again when the link is opened.
public struct EmailChanges: Sendable {
    /// The emails a change causes, built by the server layer (it knows URLs and templates).
    public struct Notices: Sendable {
        /// To the new address: the link that confirms it.
        public var confirmation: @Sendable (_ token: SecretToken, _ account: Account, _ newEmail: EmailAddress, _ now: Date) throws -> Job
        /// To the new address when another account has it: nothing was changed.
        public var addressTaken: @Sendable (_ account: Account, _ newEmail: EmailAddress, _ now: Date) throws -> Job
        /// To the old address once the change is made.
        public var changed: @Sendable (_ account: Account, _ oldEmail: EmailAddress, _ now: Date) throws -> Job

        public init(
            confirmation: @escaping @Sendable (SecretToken, Account, EmailAddress, Date) throws -> Job,
            addressTaken: @escaping @Sendable (Account, EmailAddress, Date) throws -> Job,
            changed: @escaping @Sendable (Account, EmailAddress, Date) throws -> Job
        ) {
            self.confirmation = confirmation
            self.addressTaken = addressTaken
            self.changed = changed
        }
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case sameAddress
        case rateLimited(retryAfterSeconds: Int)
        case unknownLink
        case expiredLink
        case usedLink
        /// Between asking and opening the link, another account took the address.
        case addressTaken
        case noAccount

        public var description: String {
            switch self {
            case .sameAddress: "that is already the account's address"
            case .rateLimited(let seconds): "too many changes asked for; try again in \(seconds) seconds"
            case .unknownLink: "this link is not valid"
            case .expiredLink: "this link has expired; ask for the change again"
            case .usedLink: "this link was used already"
            case .addressTaken: "another account signs in with this address, so the change was not made"
            case .noAccount: "the account no longer exists"
            }
        }
    }

    let store: StoreAccess<any AccountOwnershipStore & AccountStore & JobStore>
    let clock: Clock
    let random: RandomSource
    let notices: Notices

    public init(store: any Store, clock: Clock, random: RandomSource, notices: Notices) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        self.notices = notices
    }

    /// Sends the confirmation link to `newEmail` (or, when another account has it, a note that
    /// nothing changed), in the transaction that stores the link.
    public func request(_ newEmail: EmailAddress, accountID: UUID) async throws {
        let now = clock.now
        let token = SecretToken(random: random)
        let notices = self.notices
        try await store.transaction { tx in
            guard let account = try await tx.account(id: accountID) else { throw Problem.noAccount }
            guard account.email != newEmail else { throw Problem.sameAddress }
            let asked = try await tx.accountLinkRequests(
                accountID: accountID, purpose: .emailChange, since: now - AccountLinkRecord.rateWindow)
            if asked.count >= AccountLinkRecord.perWindow, let oldest = asked.first {
                throw Problem.rateLimited(retryAfterSeconds: SignIn.secondsUntil(oldest + AccountLinkRecord.rateWindow, from: now))
            }
            let taken = try await tx.account(email: newEmail) != nil
            // Stored either way (spent at once when taken: no link went out), so the limit
            // does not tell a taken address from a free one.
            try await tx.insertAccountLink(AccountLinkRecord(
                digest: token.digest, accountID: accountID, purpose: .emailChange, newEmail: newEmail, createdAt: now,
                expiresAt: now + AccountLinkRecord.lifetime, usedAt: taken ? now : nil))
            try await tx.enqueue(taken ? notices.addressTaken(account, newEmail, now) : notices.confirmation(token, account, newEmail, now))
        }
    }

    /// The account and address a link would change, without spending it: what its page names
    /// before the person presses the button.
    public func pending(_ token: SecretToken) async throws -> (account: Account, newEmail: EmailAddress) {
        let now = clock.now
        return try await store.read { tx in try await Self.open(token, now: now, tx: tx) }
    }

    /// Makes the change a link confirms and tells the old address; the account as it is now.
    @discardableResult
    public func confirm(_ token: SecretToken) async throws -> Account {
        let now = clock.now
        let notices = self.notices
        return try await store.transaction { tx in
            let (account, newEmail) = try await Self.open(token, now: now, tx: tx)
            guard try await tx.account(email: newEmail) == nil else { throw Problem.addressTaken }
            guard try await tx.markAccountLinkUsed(digest: token.digest, at: now) else { throw Problem.usedLink }
            var changed = account
            changed.email = newEmail
            try await tx.updateAccount(changed)
            try await tx.enqueue(notices.changed(changed, account.email, now))
            return changed
        }
    }

    private static func open(_ token: SecretToken, now: Date, tx: any AccountOwnershipStore & AccountStore) async throws -> (Account, EmailAddress) {
        guard let link = try await tx.accountLink(digest: token.digest), link.purpose == .emailChange, let newEmail = link.newEmail else {
            throw Problem.unknownLink
        }
        guard link.usedAt == nil else { throw Problem.usedLink }
        guard link.expiresAt > now else { throw Problem.expiredLink }
        guard let account = try await tx.account(id: link.accountID), !account.isDisabled else { throw Problem.noAccount }
        return (account, newEmail)
    }
}
