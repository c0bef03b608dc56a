import Foundation
import Hummingbird
import JadwalCore
import NIOCore

/// What a request carries through the middleware: who the client is and, once the session
/// middleware has checked the access token, the signed-in account.
public struct JadwalRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    public var requestID: String = ""
    /// The client address used for rate limits (the proxy's view when configured to trust it).
    public var clientAddress: String?
    public var identity: Identity?
    /// A web form post's body, read (and its CSRF token checked) by `WebSessionMiddleware`.
    package var formBody: String?

    public struct Identity: Sendable {
        public var account: Account
        public var session: SignInSession
    }

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        clientAddress = remoteAddress?.ipAddress
    }

    /// The signed-in identity; routes behind `SessionMiddleware` always have one.
    package func requireIdentity() throws -> Identity {
        guard let identity else { throw APIError.missingAccessToken }
        return identity
    }
}
