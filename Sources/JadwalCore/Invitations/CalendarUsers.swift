import DAV
import Foundation
import ICalendar

/// Calendar user addresses (RFC 6638 §2.4.1) and the accounts they name: the one place that
/// reads an ORGANIZER or ATTENDEE value as a person of this server.
public enum CalendarUsers {
    /// The addresses an account answers to: its email (`mailto:`) and its principal URL, as
    /// `calendar-user-address-set` lists them.
    public static func addresses(of account: Account) -> Set<CalendarUserAddress> {
        [CalendarUserAddress("mailto:\(account.email.value)"), CalendarUserAddress(DAVHref.principal(account.id))]
    }

    /// The account an address names, disabled or not: by email (`mailto:`) or by principal URL.
    public static func account(at address: CalendarUserAddress, store: any Store) async throws -> Account? {
        try await store.read { tx in try await account(at: address, tx: tx) }
    }

    public static func account(at address: CalendarUserAddress, tx: any AccountStore) async throws -> Account? {
        if let text = address.email {
            guard let email = try? EmailAddress(text) else { return nil }
            return try await tx.account(email: email)
        }
        guard let id = accountID(inPrincipal: address) else { return nil }
        return try await tx.account(id: id)
    }

    /// The account id of a principal URL address of this server; nil for any other address.
    public static func accountID(inPrincipal address: CalendarUserAddress) -> UUID? {
        let principals = DAVHref.principals.lowercased()
        guard address.key.hasPrefix(principals) else { return nil }
        return UUID(uuidString: String(address.key.dropFirst(principals.count)))
    }

    /// The person's answer to a meeting someone else organises (their ATTENDEE's PARTSTAT in
    /// the item); nil for their own events and meetings they organise.
    public static func invitationAnswer(of account: Account, in item: Component) -> ParticipationStatus? {
        let addresses = addresses(of: account)
        guard let organizer = item.first("ORGANIZER"), !addresses.contains(CalendarUserAddress(organizer.value)),
              let me = ITIP.attendee(addresses, in: item)
        else { return nil }
        return ParticipationStatus(parameter: me.parameter("PARTSTAT"))
    }

    /// The email an address can be written to: a `mailto:` address checked as an email.
    public static func email(of address: CalendarUserAddress) -> EmailAddress? {
        address.email.flatMap { try? EmailAddress($0) }
    }
}
