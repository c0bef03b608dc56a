import Foundation
import JadwalCore
import JadwalHTTP
import JadwalMail
import JadwalPush
import Logging

/// The `notification.webpush` job: one notification to each of the account's browsers, encrypted
/// to each (RFC 8291) and signed with the server's VAPID key (RFC 8292). Each browser is claimed
/// before sending, so a retried job reaches only those that did not get it; a subscription the
/// push service calls gone (404, 410) is forgotten.
package enum NotificationWebPush {
    /// What the service worker reads (`static/sw.js`, its `push` handler).
    package struct Message: Codable, Equatable {
        package var id: String
        package var kind: String
        package var title: String
        package var body: String
        /// Where a tap opens: a path on this server, or an address the notification named.
        package var url: String
        /// The same tag for every try, so a retry the push service had delivered replaces the first.
        package var tag: String
        package var lang: String
        package var dir: String
        package var urgent: Bool
    }

    package static func handler(subscriptions: WebPushSubscriptions, client: WebPushClient, logger: Logger) -> JobHandlers.Handler {
        { job in
            let request = try NotificationChannel.request(of: job)
            guard let (notification, account, browsers) = try await subscriptions.delivery(of: request) else { return }
            let payload = try message(notification, account: account)
            let options = WebPushClient.Options(
                ttl: notification.urgent ? 3600 : 86_400, urgency: notification.urgent ? "high" : "normal", topic: topic(notification))
            var retry: [String] = []
            for browser in browsers {
                guard try await subscriptions.claim(notification, for: browser) else { continue }  // it has it already
                switch await client.send(payload, to: browser, options: options) {
                case .delivered:
                    try await subscriptions.delivered(to: browser)
                case .gone(let reason):
                    logger.notice("web push subscription dropped", metadata: ["subscription": "\(browser.id)", "reason": "\(reason)"])
                    try await subscriptions.drop(browser)
                case .rejected(let reason):
                    logger.warning("web push refused", metadata: ["subscription": "\(browser.id)", "reason": "\(reason)"])
                case .retryLater(let reason):
                    // Given back, so the retry sends to this browser again.
                    try await subscriptions.release(notification, for: browser)
                    retry.append(reason)
                }
            }
            if !retry.isEmpty { throw WebPushRetry(reasons: retry) }
        }
    }

    package struct WebPushRetry: Error, CustomStringConvertible {
        package let reasons: [String]
        package var description: String { "push services asked to retry: " + reasons.joined(separator: "; ") }
    }

    /// The JSON the browser decrypts, cut to what one push message carries (the body shortened first).
    package static func message(_ notification: AccountNotification, account: Account) throws -> Data {
        var message = Message(
            id: notification.id.uuidString.lowercased(), kind: notification.kind.rawValue, title: String(notification.title.prefix(200)),
            body: notification.body, url: path(of: notification), tag: "n-" + notification.id.uuidString.lowercased(),
            lang: account.language.rawValue, dir: account.language == .arabic ? "rtl" : "ltr", urgent: notification.urgent)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(message)
        while data.count > WebPushEncryption.maximumPlaintext, !message.body.isEmpty {
            message.body = String(message.body.dropLast(max(1, (data.count - WebPushEncryption.maximumPlaintext) / 2))) + "…"
            if message.body == "…" { message.body = "" }
            data = try encoder.encode(message)
        }
        return data
    }

    /// Where tapping the notification leads in the web app.
    package static func path(of notification: AccountNotification) -> String {
        if let url = notification.links["url"], url.hasPrefix("/") || url.hasPrefix("https://") || url.hasPrefix("http://") { return url }
        if let calendar = notification.links["calendarId"], let name = notification.links["objectName"],
           let escaped = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(.init(charactersIn: "/")))
        {
            return "/events/\(calendar)/\(escaped)"
        }
        switch notification.kind {
        case .conflict: return "/conflicts"
        case .share: return "/settings/calendars"
        case .feedFailed: return "/settings/calendars"
        case .whatsAppUnlinked: return "/settings/whatsapp"
        default: return "/calendar"
        }
    }

    /// RFC 8030 §5.4: at most 32 characters of the base64url alphabet.
    static func topic(_ notification: AccountNotification) -> String {
        String(notification.id.uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(32))
    }
}
