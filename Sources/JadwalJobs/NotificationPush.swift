import Crypto
import Foundation
import JadwalCore
import JadwalHTTP
import JadwalMail
import JadwalPush
import Logging
import Scheduling

/// The `notification.push` job: one notification to each of the account's Apple devices, as an
/// alert, and for an event Jadwal added or a conflict also as a background push carrying the
/// event, so the app can run its own conflict check. Each device is claimed before sending, so a
/// retried job reaches only the devices that did not get it; a token APNs no longer accepts is
/// dropped.
package enum NotificationPush {
    package static func handler(notifications: Notifications, client: APNsClient, busyTime: AccountBusyTime, logger: Logger) -> JobHandlers.Handler {
        { job in
            let request = try NotificationChannel.request(of: job)
            guard let delivery = try await notifications.pushDelivery(of: request, busyTime: busyTime) else { return }
            let notification = delivery.notification
            let event = delivery.event.map { Self.event($0.occurrence, calendar: $0.calendar, account: delivery.account) }
            var retry: [String] = []
            for device in delivery.devices {
                let channel = "push:" + device.id.uuidString.lowercased()
                guard try await notifications.claim(notification, channel: channel) else {
                    continue  // this device has it already
                }
                var pushes = [PushNotification(
                    id: Self.apnsID(notification.id, device.id, "alert"),
                    presentation: .alert(PushAlert(title: notification.title, body: notification.body, threadID: notification.kind.rawValue)),
                    kind: notification.kind.rawValue, event: event, collapseID: Self.collapseID(notification))]
                if event != nil, notification.kind == .eventAdded || notification.kind == .conflict {
                    pushes.append(PushNotification(
                        id: Self.apnsID(notification.id, device.id, "background"), presentation: .background, kind: notification.kind.rawValue, event: event))
                }
                var failed: String?
                sending: for push in pushes {
                    let outcome: PushOutcome
                    do {
                        outcome = try await client.send(push, to: device.token)
                    } catch {
                        logger.error("push not sendable", metadata: ["notification": "\(notification.id)", "error": "\(error)"])
                        break sending
                    }
                    switch outcome {
                    case .delivered:
                        continue sending
                    case .deviceGone(let reason, _):
                        logger.notice("push token dropped", metadata: ["device": "\(device.id)", "reason": "\(reason)"])
                        try await notifications.forgetDevice(token: device.token)
                        break sending
                    case .rejected(let reason):
                        logger.warning("push rejected", metadata: ["device": "\(device.id)", "reason": "\(reason)"])
                        break sending
                    case .retryLater(let reason):
                        failed = reason
                        break sending
                    }
                }
                if let failed {
                    // Given back, so the retry sends to this device again.
                    try await notifications.release(notification, channel: channel)
                    retry.append(failed)
                }
            }
            if !retry.isEmpty { throw PushRetry(reasons: retry) }
        }
    }

    package struct PushRetry: Error, CustomStringConvertible {
        package let reasons: [String]
        package var description: String { "APNs asked to retry: " + reasons.joined(separator: "; ") }
    }

    /// The event a notification is about, as a push carries it.
    package static func event(_ occurrence: EventOccurrence, calendar: CalendarCollection, account: Account) -> PushEvent {
        PushEvent(
            uid: occurrence.uid, title: occurrence.title ?? "", start: occurrence.range.start, end: occurrence.range.end,
            calendar: calendar.displayName, isAllDay: occurrence.traits.isAllDay, timeZone: calendar.timeZone ?? account.timeZone)
    }

    /// The same `apns-id` for every try of one push, so Apple's log and ours match across retries.
    package static func apnsID(_ notification: UUID, _ device: UUID, _ presentation: String) -> UUID {
        let digest = Array(SHA256.hash(data: Data("\(notification)|\(device)|\(presentation)".utf8)))
        return UUID(uuid: (digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], (digest[6] & 0x0F) | 0x50, digest[7],
                           (digest[8] & 0x3F) | 0x80, digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]))
    }

    /// A retry that APNs had in fact delivered replaces the first copy instead of showing twice.
    package static func collapseID(_ notification: AccountNotification) -> String {
        "n-" + notification.id.uuidString.lowercased()
    }
}
