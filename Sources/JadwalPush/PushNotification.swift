import Foundation
import JadwalCore

/// One notification for one app, before it is addressed to a device: what the user sees (an
/// alert) or nothing (a background push that wakes the app), plus Jadwal's own data.
public struct PushNotification: Sendable, Equatable {
    public enum Presentation: Sendable, Equatable {
        /// Shown to the user, with the default sound: `apns-push-type: alert`, priority 10.
        case alert(PushAlert)
        /// Only wakes the app (`content-available: 1`): `apns-push-type: background`, priority 5,
        /// as Apple requires for background pushes.
        case background
    }

    /// Sent as `apns-id` and answered back by APNs, so the server's log and Apple's match. Keep
    /// it for retries of the same notification.
    public var id: UUID
    public var presentation: Presentation
    /// What happened, for the app: `jadwal.kind` ("event-added", "conflict", "reminder", …).
    public var kind: String
    /// The event it is about, carried whole so the app can run its own conflict check.
    public var event: PushEvent?
    /// Until when APNs keeps trying an offline device (`apns-expiration`); nil sends `0`: deliver
    /// now or never, the right thing for something only worth knowing now.
    public var expiration: Date?
    /// Notifications with the same collapse ID replace each other on the device (`apns-collapse-id`,
    /// at most 64 bytes); using the notification's own reason keeps a retried one from showing twice.
    public var collapseID: String?

    public init(
        id: UUID, presentation: Presentation, kind: String, event: PushEvent? = nil, expiration: Date? = nil, collapseID: String? = nil
    ) {
        self.id = id
        self.presentation = presentation
        self.kind = kind
        self.event = event
        self.expiration = expiration
        self.collapseID = collapseID
    }

    public var pushType: String {
        switch presentation {
        case .alert: "alert"
        case .background: "background"
        }
    }

    public var priority: Int {
        switch presentation {
        case .alert: 10
        case .background: 5
        }
    }
}

/// The visible part of an alert.
public struct PushAlert: Sendable, Equatable {
    public var title: String
    public var body: String
    /// Groups notifications on the device (`thread-id`), e.g. one thread per calendar or conflict.
    public var threadID: String?

    public init(title: String, body: String, threadID: String? = nil) {
        self.title = title
        self.body = body
        self.threadID = threadID
    }
}

/// An event as the app receives it in `jadwal.event`. Instants are ISO 8601 in UTC, so the app
/// compares them with its own calendar without knowing the server's time zones.
public struct PushEvent: Sendable, Equatable {
    public var uid: String
    public var title: String
    public var start: Date
    public var end: Date
    /// The calendar it is in, as the app knows calendars (its id in the API).
    public var calendar: String
    public var isAllDay: Bool
    /// The event's own time zone (IANA), for showing it as it was written.
    public var timeZone: String?
    /// An occurrence of a repeating event: its original start (RECURRENCE-ID).
    public var recurrenceID: Date?
    public var location: String?
    /// Shortened first when the payload would pass APNs' 4 KB.
    public var description: String?

    public init(
        uid: String, title: String, start: Date, end: Date, calendar: String, isAllDay: Bool = false, timeZone: String? = nil,
        recurrenceID: Date? = nil, location: String? = nil, description: String? = nil
    ) {
        self.uid = uid
        self.title = title
        self.start = start
        self.end = end
        self.calendar = calendar
        self.isAllDay = isAllDay
        self.timeZone = timeZone
        self.recurrenceID = recurrenceID
        self.location = location
        self.description = description
    }
}

/// Why a notification cannot be sent at all, found before anything goes to APNs.
public enum PushNotificationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON payload is over APNs' limit even with the event description shortened.
    case payloadTooLarge(bytes: Int, limit: Int)
    /// `apns-collapse-id` is limited to 64 bytes.
    case collapseIDTooLong(bytes: Int)

    public var description: String {
        switch self {
        case .payloadTooLarge(let bytes, let limit):
            "the push payload is \(bytes) bytes, over APNs' limit of \(limit), even with the event description removed"
        case .collapseIDTooLong(let bytes): "the collapse ID is \(bytes) bytes; APNs takes at most 64"
        }
    }
}
