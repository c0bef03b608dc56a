import Foundation
import JadwalCore

/// What became of one push to one device, as the caller must act on it.
public enum PushOutcome: Sendable, Equatable {
    /// APNs accepted it, under this `apns-id`.
    case delivered(apnsID: UUID)
    /// The device token will not work again for this app: forget it. `since` is when APNs says it
    /// stopped being valid (410 answers only); a token registered after that is a new one.
    case deviceGone(reason: String, since: Date?)
    /// Nothing is wrong with the notification: APNs was busy or failing, or could not be reached.
    /// Send it again later, with backoff.
    case retryLater(reason: String)
    /// APNs refused it, or this server's credentials, for a reason that sending again will not change.
    case rejected(reason: String)

    /// The metrics label.
    package var label: String {
        switch self {
        case .delivered: "delivered"
        case .deviceGone: "device_gone"
        case .retryLater: "retry_later"
        case .rejected: "rejected"
        }
    }
}

/// APNs' answer to one request, read as Apple's "Handling notification responses from APNs"
/// describes it: an empty body on success, else `{"reason":…}` and, with 410, `"timestamp"` in
/// milliseconds since 1970.
package struct APNsAnswer: Sendable, Equatable {
    package var status: Int
    package var apnsID: UUID?
    package var reason: String?
    package var timestamp: Date?

    package init(status: Int, apnsID: UUID?, reason: String?, timestamp: Date?) {
        self.status = status
        self.apnsID = apnsID
        self.reason = reason
        self.timestamp = timestamp
    }

    package init(status: Int, apnsIDHeader: String?, body: Data) {
        self.status = status
        apnsID = apnsIDHeader.flatMap(UUID.init(uuidString:))
        struct ErrorBody: Decodable {
            package var reason: String?
            package var timestamp: Double?
        }
        let decoded = body.isEmpty ? nil : try? JSONDecoder().decode(ErrorBody.self, from: body)
        reason = decoded?.reason
        timestamp = decoded?.timestamp.map { Date(timeIntervalSince1970: $0 / 1000) }
    }

    /// APNs refused the provider token in a way a freshly signed one may cure.
    package var isProviderTokenRefusal: Bool {
        status == 403 && (reason == "ExpiredProviderToken" || reason == "InvalidProviderToken")
    }

    /// The outcome, given the `apns-id` this request was sent with.
    package func outcome(sentID: UUID) -> PushOutcome {
        let reason = self.reason ?? "HTTP \(status)"
        switch status {
        case 200:
            return .delivered(apnsID: apnsID ?? sentID)
        case 410:
            // Unregistered or ExpiredToken: the token is no longer active for the topic.
            return .deviceGone(reason: reason, since: timestamp)
        case 400 where self.reason == "BadDeviceToken" || self.reason == "DeviceTokenNotForTopic":
            return .deviceGone(reason: reason, since: nil)
        case 400 where self.reason == "IdleTimeout":
            // The connection sat idle too long; the next one will be fresh.
            return .retryLater(reason: reason)
        case 429, 500...599:
            // TooManyRequests, TooManyProviderTokenUpdates, InternalServerError,
            // ServiceUnavailable, Shutdown.
            return .retryLater(reason: reason)
        default:
            return .rejected(reason: "\(status) \(reason)")
        }
    }
}
