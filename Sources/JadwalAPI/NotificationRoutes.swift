import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP
import JadwalPush
import NIOCore

/// `/api/v1/notifications`: the feed, its unread count and read marks, the live stream
/// (Server-Sent Events, resumable with `Last-Event-ID`), the person's channel and quiet-hour
/// choices, and `/api/v1/devices` for push tokens.
package struct NotificationRoutes: Sendable {
    package let notifications: Notifications
    package let hub: NotificationHub
    /// A stream with nothing to send writes a comment this often (proxies close silent
    /// connections) and reads the database again (posts by other processes).
    package let keepAlive: Duration
    /// Devices are taken only when this server can push to them (APNs is configured).
    package let pushEnabled: Bool
    /// Whose session a stream checks each time it wakes: a stream ends with its session.
    package let signIn: SignIn
    /// Open streams one account may hold on this instance.
    package let streamLimit: Int

    package init(notifications: Notifications, hub: NotificationHub, keepAlive: Duration, pushEnabled: Bool, signIn: SignIn, streamLimit: Int) {
        self.notifications = notifications
        self.hub = hub
        self.keepAlive = keepAlive
        self.pushEnabled = pushEnabled
        self.signIn = signIn
        self.streamLimit = streamLimit
    }

    /// The header an EventSource sends when it reconnects.
    package static let lastEventID = HTTPField.Name("Last-Event-ID")!
    package static let accelBuffering = HTTPField.Name("X-Accel-Buffering")!

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("notifications") { request, context in
            let accountID = try context.requireIdentity().account.id
            let query = request.uri.queryParameters
            let limit = try Self.number(query.get("limit"), name: "limit", default: 50, range: 1...200)
            let before = try query.get("before").map { try Self.number($0, name: "before", default: 0, range: 1...Int.max) }
            let unreadOnly = try Self.flag(query.get("unread"), name: "unread")
            let (items, unread) = try await notifications.feed(accountID: accountID, beforeSequence: before.map(Int64.init), unreadOnly: unreadOnly, limit: limit)
            return JSONResponse(NotificationList(
                notifications: items.map(NotificationView.init), unreadCount: unread,
                nextBefore: items.count == limit ? items.last?.sequence : nil))
        }
        group.get("notifications/unread-count") { _, context in
            let accountID = try context.requireIdentity().account.id
            return JSONResponse(UnreadCount(unreadCount: try await notifications.unreadCount(accountID: accountID)))
        }
        group.post("notifications/read") { request, context in
            let accountID = try context.requireIdentity().account.id
            struct Body: Decodable { let ids: [String] }
            let body = try await request.decodeJSON(as: Body.self)
            guard body.ids.count <= Notifications.readLimit else {
                throw APIError.badRequest("invalid_field", "Field 'ids' takes at most \(Notifications.readLimit) notification ids at a time.")
            }
            let ids = try body.ids.map { text in
                guard let id = UUID(uuidString: text) else { throw APIError.badRequest("invalid_field", "Field 'ids': '\(text)' is not a notification id.") }
                return id
            }
            let (marked, unread) = try await notifications.markRead(ids: ids, accountID: accountID)
            hub.wake(accountID)
            return JSONResponse(ReadResult(marked: marked, unreadCount: unread))
        }
        group.post("notifications/read-all") { _, context in
            let accountID = try context.requireIdentity().account.id
            let marked = try await notifications.markAllRead(accountID: accountID)
            hub.wake(accountID)
            return JSONResponse(ReadResult(marked: marked, unreadCount: 0))
        }
        group.get("notifications/stream") { request, context -> Response in
            let identity = try context.requireIdentity()
            let accountID = identity.account.id
            let lastEventID = request.headers[Self.lastEventID] ?? request.uri.queryParameters.get("lastEventId")
            let start: Int64?
            if let lastEventID {
                guard let parsed = Int64(lastEventID.trimmingCharacters(in: .whitespaces)), parsed >= 0 else {
                    throw APIError.badRequest("invalid_last_event_id", "Last-Event-ID must be the id of a notification event this stream sent (a number).")
                }
                start = parsed
            } else {
                start = nil
            }
            guard let slot = hub.reserveStream(accountID: accountID, limit: streamLimit) else {
                throw APIError(
                    .tooManyRequests, code: "too_many_streams",
                    message: "This account has \(streamLimit) notification streams open already; close a tab or app that holds one.",
                    headers: [.retryAfter: "30"])
            }
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache", Self.accelBuffering: "no"],
                body: ResponseBody { writer in
                    // The place is held while the stream runs and given back when it ends.
                    defer { withExtendedLifetime(slot) {} }
                    try await stream(accountID: accountID, sessionID: identity.session.id, after: start, to: &writer)
                })
        }
        group.get("notifications/settings") { _, context in
            let accountID = try context.requireIdentity().account.id
            return JSONResponse(NotificationSettingsView(try await notifications.settings(accountID: accountID)))
        }
        group.put("notifications/settings") { request, context in
            let accountID = try context.requireIdentity().account.id
            let change = try await request.decodeJSON(as: NotificationSettingsChange.self)
            return JSONResponse(NotificationSettingsView(try await notifications.updateSettings(change, accountID: accountID)))
        }

        group.post("devices") { request, context -> Response in
            let accountID = try context.requireIdentity().account.id
            struct Body: Decodable { let token: String; let name: String? }
            guard pushEnabled else {
                throw APIError(.conflict, code: "push_not_configured", message: "This server cannot push to Apple devices: its operator has not set JADWAL_APNS_* (see the README).")
            }
            let body = try await request.decodeJSON(as: Body.self)
            guard let token = APNsDeviceToken.normalized(body.token) else {
                throw APIError.badRequest("invalid_field", "Field 'token' must be the APNs device token in hex (as the app received it).")
            }
            let saved: PushDevice
            do {
                saved = try await notifications.registerDevice(token: token, name: body.name, accountID: accountID)
            } catch Notifications.Problem.invalidDeviceName {
                throw APIError.badRequest("invalid_field", "Field 'name' must be at most \(PushDevice.nameLimit) characters without control characters.")
            }
            return try JSONResponse(DeviceView(saved), status: .created).response(from: request, context: context)
        }
        group.get("devices") { _, context in
            let accountID = try context.requireIdentity().account.id
            return JSONResponse(DeviceList(devices: try await notifications.devices(accountID: accountID).map(DeviceView.init)))
        }
        group.delete("devices/{id}") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            let missing = APIError.notFound("No such device; GET /api/v1/devices lists yours.")
            guard let id = UUID(uuidString: try context.parameters.require("id")) else { throw missing }
            do {
                try await notifications.removeDevice(id: id, accountID: accountID)
            } catch Notifications.Problem.noDevice {
                throw missing
            }
            return Response(status: .noContent)
        }
    }

    /// Writes every delivered notification after `start` (or, for a new stream, after the newest
    /// one now), then waits for more until the client goes, the server stops, or the session
    /// ends: it is checked on every wake and keep-alive, so a signed-out or revoked session
    /// stops receiving within one keep-alive.
    private func stream(accountID: UUID, sessionID: UUID, after start: Int64?, to writer: inout any ResponseBodyWriter) async throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        var last = if let start { start } else { try await notifications.newestSequence(accountID: accountID) }
        var calendarsSeen = hub.calendarGeneration(of: accountID)
        // The first event tells the client where it stands, so a reconnect resumes from here.
        try await writer.write(ByteBuffer(string: "retry: 3000\nid: \(last)\nevent: ready\ndata: {}\n\n"))
        var generation: UInt64 = 0
        // When the next read (and keep-alive) is due. A calendar change told in between does not
        // put it off: a person writing more often than the keep-alive must still see the
        // notifications and session checks that only a read brings.
        var due = ContinuousClock.now + keepAlive
        var read = true
        while true {
            if read {
                generation = hub.generation(of: accountID)
                guard (try? await signIn.activeSession(id: sessionID)) != nil else {
                    // Named, so a client knows not to reconnect with the same credentials.
                    try await writer.write(ByteBuffer(string: "event: signed-out\ndata: {}\n\n"))
                    try await writer.finish(nil)
                    return
                }
                let (batch, nextHeld, now) = try await notifications.delivered(after: last, accountID: accountID, limit: 100)
                for notification in batch {
                    let data = String(decoding: try encoder.encode(NotificationView(notification)), as: UTF8.self)
                    try await writer.write(ByteBuffer(string: "id: \(notification.sequence)\nevent: notification\ndata: \(data)\n\n"))
                    last = max(last, notification.sequence)
                }
                if batch.count == 100 { continue }
                var timeout = keepAlive
                if let nextHeld {
                    // A notification held by quiet hours comes due: look again then.
                    timeout = min(timeout, .milliseconds(max(10, Int64(nextHeld.timeIntervalSince(now) * 1000) + 10)))
                }
                due = .now + timeout
            }
            let timeout = max(.milliseconds(1), due - .now)
            switch await hub.wait(accountID: accountID, after: generation, calendarsAfter: calendarsSeen, timeout: timeout) {
            case .closed:
                try await writer.finish(nil)
                return
            case .timedOut:
                try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                read = true
            case .posted:
                read = true
            case .calendarsChanged:
                // Told, not read: the page fetches its own part again. No id, so a reconnect
                // still resumes notifications from the last one sent.
                calendarsSeen = hub.calendarGeneration(of: accountID)
                try await writer.write(ByteBuffer(string: "event: calendar\ndata: {}\n\n"))
                read = false
            }
        }
    }

    package static func number(_ text: String?, name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw APIError.badRequest("invalid_query", "'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return number
    }

    package static func flag(_ text: String?, name: String) throws -> Bool {
        switch text {
        case nil, "false", "0": return false
        case "true", "1": return true
        case let other?: throw APIError.badRequest("invalid_query", "'\(name)' is true or false, not '\(other)'.")
        }
    }
}

// MARK: - Views and changes

package struct NotificationView: Encodable, Sendable {
    package let id: String
    package let sequence: Int64
    package let kind: NotificationKind
    package let title: String
    package let body: String
    package let links: [String: String]
    package let urgent: Bool
    package let createdAt: Date
    package let deliveredAt: Date
    package let read: Bool

    package init(_ notification: AccountNotification) {
        id = notification.id.uuidString.lowercased()
        sequence = notification.sequence
        kind = notification.kind
        title = notification.title
        body = notification.body
        links = notification.links
        urgent = notification.urgent
        createdAt = notification.createdAt
        deliveredAt = notification.deliverAfter
        read = notification.readAt != nil
    }
}

package struct NotificationList: Encodable, Sendable {
    package let notifications: [NotificationView]
    package let unreadCount: Int
    /// Pass as `before` for the next (older) page; null on the last page.
    package let nextBefore: Int64?

    package enum CodingKeys: String, CodingKey { case notifications, unreadCount, nextBefore }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(notifications, forKey: .notifications)
        try container.encode(unreadCount, forKey: .unreadCount)
        try container.encode(nextBefore, forKey: .nextBefore)
    }
}

package struct UnreadCount: Encodable, Sendable { let unreadCount: Int }
package struct ReadResult: Encodable, Sendable { let marked: Int; let unreadCount: Int }

package struct NotificationSettingsView: Encodable, Sendable {
    package let email: [NotificationKind]
    package let push: [NotificationKind]
    package let quietDuringSleep: Bool
    package let quietDuringPrayer: Bool

    package init(_ settings: NotificationSettings) {
        email = NotificationKind.allCases.filter(settings.emailKinds.contains)
        push = NotificationKind.allCases.filter(settings.pushKinds.contains)
        quietDuringSleep = settings.quietDuringSleep
        quietDuringPrayer = settings.quietDuringPrayer
    }
}

package struct DeviceView: Encodable, Sendable {
    package let id: String
    package let name: String
    /// The token's last characters only: enough to tell devices apart.
    package let tokenSuffix: String
    package let createdAt: Date
    package let lastUsedAt: Date?

    package init(_ device: PushDevice) {
        id = device.id.uuidString.lowercased()
        name = device.name
        tokenSuffix = String(device.token.suffix(8))
        createdAt = device.createdAt
        lastUsedAt = device.lastUsedAt
    }
}

package struct DeviceList: Encodable, Sendable { let devices: [DeviceView] }
