import Foundation

/// Accounts as the server's operator manages them (`jadwal user …`): made by the same rule as a
/// first sign-in (default calendars in the person's language), listed, disabled (which signs the
/// account out everywhere) and enabled again.
public struct Accounts: Sendable {
    let store: StoreAccess<any AccountStore & CalendarStore & SessionStore>
    let clock: Clock
    let random: RandomSource

    public init(store: any Store, clock: Clock, random: RandomSource) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case exists(EmailAddress)
        case noAccount(EmailAddress)
        case invalidDetails(ProfileChange.Problem)

        public var description: String {
            switch self {
            case .exists(let email): "an account for \(email.value) already exists"
            case .noAccount(let email): "no account for \(email.value)"
            case .invalidDetails(let problem): "invalid account details: \(problem)"
            }
        }
    }

    /// A new account with its default calendars, or `Problem.exists`.
    public func create(email: EmailAddress, name: String, timeZone: String, language: Language) async throws -> Account {
        let now = clock.now
        let blank = Account(id: random.uuid(), email: email, name: "", timeZone: "UTC", language: language, createdAt: now)
        let account: Account
        do {
            account = try ProfileChange(name: name, timeZone: timeZone).applied(to: blank)
        } catch {
            throw Problem.invalidDetails(error)
        }
        try await store.transaction { tx in
            guard try await tx.account(email: email) == nil else { throw Problem.exists(email) }
            try await tx.insertAccountWithDefaultCalendars(account, now: now, random: random)
        }
        return account
    }

    public func all() async throws -> [Account] {
        try await store.read { tx in try await tx.accounts() }
    }

    public func account(email: EmailAddress) async throws -> Account {
        guard let account = try await store.read({ tx in try await tx.account(email: email) }) else { throw Problem.noAccount(email) }
        return account
    }

    /// Disables an account and ends its sessions, or enables it again.
    public func setDisabled(_ disabled: Bool, email: EmailAddress) async throws {
        let now = clock.now
        try await store.transaction { tx in
            guard var account = try await tx.account(email: email) else { throw Problem.noAccount(email) }
            account.disabledAt = disabled ? (account.disabledAt ?? now) : nil
            try await tx.updateAccount(account)
            if disabled { try await tx.revokeSessions(accountID: account.id, at: now, reason: "account disabled") }
        }
    }
}
