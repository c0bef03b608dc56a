import Crypto
import Foundation

/// A browser that receives Web Push (RFC 8030): the push service's address for it and the keys
/// its messages are encrypted to (RFC 8291), as `PushSubscription.toJSON()` gives them.
public struct WebPushSubscription: Sendable, Hashable {
    public var id: UUID
    public var accountID: UUID
    /// The push service's HTTPS address for this browser; it is the subscription's identity.
    public var endpoint: String
    /// The browser's P-256 public key, uncompressed (65 bytes), base64url.
    public var p256dh: String
    /// The browser's 16-byte authentication secret, base64url.
    public var auth: String
    public var name: String
    /// The VAPID public key (base64url) the browser subscribed with: a push signed with another
    /// key is refused by the push service, so a subscription made before a key change is stale.
    public var serverKey: String
    public var createdAt: Date
    public var lastUsedAt: Date?

    public static let nameLimit = 100
    /// Push services' addresses are a few hundred characters; anything much longer is not one.
    public static let endpointLimit = 2048
    /// Browsers one account may register; a new one past this is refused until one is removed.
    public static let perAccountLimit = 20

    public init(
        id: UUID, accountID: UUID, endpoint: String, p256dh: String, auth: String, name: String, serverKey: String, createdAt: Date,
        lastUsedAt: Date? = nil
    ) {
        self.id = id
        self.accountID = accountID
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.name = name
        self.serverKey = serverKey
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    /// The keys as bytes, for encrypting; nil for a stored row that is not what was validated.
    public var keyBytes: (publicKey: Data, auth: Data)? {
        guard let key = Data(base64URLEncoded: p256dh), key.count == 65, let secret = Data(base64URLEncoded: auth), secret.count == 16 else { return nil }
        return (key, secret)
    }
}

/// What a browser sends to subscribe: `PushSubscription.toJSON()` plus a name for the list.
public struct WebPushSubscriptionDraft: Sendable, Hashable, Decodable {
    public struct Keys: Sendable, Hashable, Decodable {
        public var p256dh: String?
        public var auth: String?

        public init(p256dh: String?, auth: String?) {
            self.p256dh = p256dh
            self.auth = auth
        }
    }

    public var endpoint: String?
    public var keys: Keys?
    public var name: String?
    /// The key the browser subscribed with (`subscription.options.applicationServerKey`), when it says.
    public var applicationServerKey: String?

    public init(endpoint: String?, keys: Keys?, name: String? = nil, applicationServerKey: String? = nil) {
        self.endpoint = endpoint
        self.keys = keys
        self.name = name
        self.applicationServerKey = applicationServerKey
    }

    /// Each problem names the field and what it must be.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case invalidEndpoint(String)
        case invalidKey
        case invalidAuth
        case invalidName
        case otherServerKey

        public var description: String {
            switch self {
            case .invalidEndpoint(let why): "'endpoint' \(why)"
            case .invalidKey: "'keys.p256dh' must be the browser's P-256 public key, uncompressed (65 bytes), in base64url"
            case .invalidAuth: "'keys.auth' must be the browser's 16-byte authentication secret in base64url"
            case .invalidName: "'name' must be at most \(WebPushSubscription.nameLimit) characters without control characters"
            case .otherServerKey:
                "the browser subscribed with another server key than this server's (GET /api/v1/web-push/key): unsubscribe and subscribe again"
            }
        }
    }

    /// Checks the shape of every field (not yet where the endpoint's host points: that needs DNS).
    public func validated(accountID: UUID, serverKey: String, now: Date, id: UUID) throws(Problem) -> WebPushSubscription {
        let endpoint = (self.endpoint ?? "").trimmingCharacters(in: .whitespaces)
        guard !endpoint.isEmpty else { throw .invalidEndpoint("is required: the push service's address from the browser's subscription") }
        guard endpoint.count <= WebPushSubscription.endpointLimit else {
            throw .invalidEndpoint("is longer than \(WebPushSubscription.endpointLimit) characters")
        }
        guard let url = URLComponents(string: endpoint), url.scheme?.lowercased() == "https" else {
            throw .invalidEndpoint("must be an https:// address (RFC 8030 push services speak only HTTPS)")
        }
        guard let host = url.host, !host.isEmpty, url.user == nil, url.password == nil, url.fragment == nil else {
            throw .invalidEndpoint("must be an https:// address with a host and no user name or fragment")
        }
        let p256dh = (keys?.p256dh ?? "").trimmingCharacters(in: .whitespaces)
        guard let key = Data(base64URLEncoded: p256dh), key.count == 65, key.first == 0x04,
              (try? P256.KeyAgreement.PublicKey(x963Representation: key)) != nil
        else { throw .invalidKey }
        let auth = (keys?.auth ?? "").trimmingCharacters(in: .whitespaces)
        guard let secret = Data(base64URLEncoded: auth), secret.count == 16 else { throw .invalidAuth }
        let name = (self.name ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard name.count <= WebPushSubscription.nameLimit, !name.containsControlCharacters else { throw .invalidName }
        if let used = applicationServerKey?.trimmingCharacters(in: .whitespaces), !used.isEmpty,
           Data(base64URLEncoded: used) != Data(base64URLEncoded: serverKey)
        {
            throw .otherServerKey
        }
        return WebPushSubscription(
            id: id, accountID: accountID, endpoint: endpoint, p256dh: key.base64URLEncodedString(), auth: secret.base64URLEncodedString(),
            name: name.isEmpty ? "Browser" : name, serverKey: serverKey, createdAt: now)
    }
}
