import Foundation
import PrayerTimes

/// The guide a person is shown after their first sign-in: language, time zone, where they pray,
/// their phone, their chats, how they are notified. Every step saves through the service that
/// owns it (profiles, prayer settings, Easy Setup, chats, notifications); this remembers whether
/// the guide was finished or skipped, and proposes what it can guess.
public struct FirstRun: Sendable {
    let store: StoreAccess<any AccountOwnershipStore>
    let clock: Clock

    public init(store: any Store, clock: Clock) {
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
    }

    /// Where the account stands: not through the guide yet, or finished or skipped it (and when).
    public enum Status: Sendable, Hashable {
        case pending
        case finished(FirstRunRecord)

        public var name: String {
            switch self {
            case .pending: "pending"
            case .finished(let record): record.state.rawValue
            }
        }

        public var isPending: Bool { self == .pending }
    }

    /// What the guide offers before the person says: the place for prayer times guessed from the
    /// time zone (to be confirmed, never saved unasked) and the method usual there.
    public struct Proposal: Sendable, Hashable {
        public var timeZone: String
        public var city: City?
        public var method: CalculationMethod?

        public init(timeZone: String) {
            self.timeZone = timeZone
            city = CityDirectory.likelyCity(inTimeZone: timeZone)
            method = city?.defaultMethod
        }
    }

    public func status(accountID: UUID) async throws -> Status {
        try await store.read { tx in try await tx.firstRun(accountID: accountID) }.map(Status.finished) ?? .pending
    }

    /// Remembers that the guide was finished or skipped; done again (the guide reopened from
    /// settings), the newer answer stands.
    @discardableResult
    public func finish(_ state: FirstRunRecord.State, accountID: UUID) async throws -> FirstRunRecord {
        let record = FirstRunRecord(state: state, at: clock.now)
        try await store.transaction { tx in try await tx.saveFirstRun(record, accountID: accountID) }
        return record
    }
}

/// The services of owning one's account, handed together to the front doors: the first-run
/// guide, a new sign-in address, the export, and deletion.
public struct AccountOwnership: Sendable {
    public let firstRun: FirstRun
    public let emailChanges: EmailChanges
    public let export: AccountExport
    public let deletion: AccountDeletion

    public init(firstRun: FirstRun, emailChanges: EmailChanges, export: AccountExport, deletion: AccountDeletion) {
        self.firstRun = firstRun
        self.emailChanges = emailChanges
        self.export = export
        self.deletion = deletion
    }
}
