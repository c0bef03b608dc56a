import Foundation
import Scheduling

/// Delivering a stored notification by email and to the account's Apple devices, as the channel
/// jobs do it (Web Push has `WebPushSubscriptions`). Each channel is claimed before sending, so
/// a retried or repeated job never sends twice, and a send to be retried gives its claim back.
extension Notifications {
    /// The notification and its account, claimed for `channel`; nil when either is gone, the
    /// account is disabled, or the notification went over that channel already.
    public func claim(_ request: NotificationDispatch.ChannelRequest, channel: String) async throws -> (AccountNotification, Account)? {
        let now = clock.now
        return try await store.transaction { tx in
            guard let notification = try await tx.notification(id: request.notificationID, accountID: request.accountID),
                  let account = try await tx.account(id: request.accountID), !account.isDisabled,
                  try await tx.recordDelivery(notificationID: notification.id, channel: channel, at: now)
            else { return nil }
            return (notification, account)
        }
    }

    /// Claims `channel` for a notification read already; false when it went there already.
    public func claim(_ notification: AccountNotification, channel: String) async throws -> Bool {
        let now = clock.now
        return try await store.transaction { tx in try await tx.recordDelivery(notificationID: notification.id, channel: channel, at: now) }
    }

    /// Gives a claim back after a send that is to be retried.
    public func release(_ notification: AccountNotification, channel: String) async throws {
        try await store.transaction { tx in try await tx.releaseDelivery(notificationID: notification.id, channel: channel) }
    }

    /// What a push job sends: the notification, its account's devices, and the event it is
    /// about (its next instance within about a year, or none) with that event's calendar; nil when
    /// the notification or the account is gone, or the account is disabled.
    public struct PushDelivery: Sendable {
        public let notification: AccountNotification
        public let account: Account
        public let devices: [PushDevice]
        public let event: (occurrence: EventOccurrence, calendar: CalendarCollection)?
    }

    public func pushDelivery(of request: NotificationDispatch.ChannelRequest, busyTime: AccountBusyTime) async throws -> PushDelivery? {
        let now = clock.now
        return try await store.read { tx in
            guard let notification = try await tx.notification(id: request.notificationID, accountID: request.accountID),
                  let account = try await tx.account(id: request.accountID), !account.isDisabled
            else { return nil }
            return PushDelivery(
                notification: notification, account: account, devices: try await tx.pushDevices(accountID: account.id),
                event: try await Self.event(of: notification, account: account, busyTime: busyTime, now: now, tx: tx))
        }
    }

    /// The event a notification links to (`calendarId`, `objectName`): its next instance.
    private static func event(of notification: AccountNotification, account: Account, busyTime: AccountBusyTime, now: Date,
                              tx: any CalendarStore) async throws -> (occurrence: EventOccurrence, calendar: CalendarCollection)? {
        guard let calendarText = notification.links["calendarId"], let calendarID = UUID(uuidString: calendarText),
              let name = notification.links["objectName"],
              let calendar = try await tx.calendar(id: calendarID), calendar.accountID == account.id,
              let object = try await tx.calendarObject(calendarID: calendarID, name: name),
              let window = try? TimeRange(start: now.addingTimeInterval(-86_400), end: now.addingTimeInterval(400 * 86_400)),
              let occurrence = busyTime.occurrences(of: object, calendar: calendar, accountZone: account.timeZone, in: window, limit: 1).first
        else { return nil }
        return (occurrence, calendar)
    }

    /// Forgets a device whose token APNs no longer accepts.
    public func forgetDevice(token: String) async throws {
        _ = try await store.transaction { tx in try await tx.deletePushDevice(token: token) }
    }
}
