import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP

/// `/api/v1/web-push`: the server's VAPID key that browsers subscribe with, and the browsers
/// of the signed-in person that receive Web Push (add, list, remove).
package struct WebPushRoutes: Sendable {
    package let subscriptions: WebPushSubscriptions

    package init(subscriptions: WebPushSubscriptions) { self.subscriptions = subscriptions }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("web-push/key") { _, _ in
            JSONResponse(KeyView(publicKey: subscriptions.serverKey))
        }
        group.post("web-push/subscriptions") { request, context -> Response in
            let accountID = try context.requireIdentity().account.id
            let draft = try await request.decodeJSON(as: WebPushSubscriptionDraft.self)
            let saved = try await subscriptions.subscribe(draft, accountID: accountID)
            return try JSONResponse(WebPushSubscriptionView(saved), status: .created).response(from: request, context: context)
        }
        group.get("web-push/subscriptions") { _, context in
            let accountID = try context.requireIdentity().account.id
            return JSONResponse(WebPushSubscriptionList(
                publicKey: subscriptions.serverKey,
                subscriptions: try await subscriptions.subscriptions(accountID: accountID).map { WebPushSubscriptionView($0, serverKey: subscriptions.serverKey) }))
        }
        group.delete("web-push/subscriptions/{id}") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            guard let id = UUID(uuidString: try context.parameters.require("id")) else {
                throw APIError.notFound("No such browser subscription; GET /api/v1/web-push/subscriptions lists yours.")
            }
            try await subscriptions.remove(id: id, accountID: accountID)
            return Response(status: .noContent)
        }
    }

    package struct KeyView: Encodable, Sendable {
        /// The VAPID public key, uncompressed P-256 in base64url: `applicationServerKey` for `pushManager.subscribe`.
        package let publicKey: String
    }
}

package struct WebPushSubscriptionView: Encodable, Sendable {
    package let id: String
    package let name: String
    /// The push service's address (the browser's own; only its owner sees it).
    package let endpoint: String
    /// Whether it was made with this server's current key (a stale one must subscribe again).
    package let current: Bool
    package let createdAt: Date
    package let lastUsedAt: Date?

    package init(_ subscription: WebPushSubscription, serverKey: String? = nil) {
        id = subscription.id.uuidString.lowercased()
        name = subscription.name
        endpoint = subscription.endpoint
        current = serverKey.map { $0 == subscription.serverKey } ?? true
        createdAt = subscription.createdAt
        lastUsedAt = subscription.lastUsedAt
    }
}

package struct WebPushSubscriptionList: Encodable, Sendable {
    package let publicKey: String
    package let subscriptions: [WebPushSubscriptionView]
}

extension APIError {
    package init(_ problem: WebPushSubscriptions.Problem) {
        switch problem {
        case .invalid: self = .badRequest("invalid_field", "Field \(problem.description).")
        case .endpointRefused:
            self.init(.unprocessableContent, code: "endpoint_refused", message: problem.description.asSentence)
        case .tooMany:
            self.init(.conflict, code: "too_many_subscriptions", message: problem.description.asSentence)
        case .noSubscription:
            self = .notFound("No such browser subscription; GET /api/v1/web-push/subscriptions lists yours.")
        }
    }

    package init(_ problem: PrayerAlertChange.Problem) {
        self = .badRequest("invalid_field", "Field \(problem.description).")
    }
}
