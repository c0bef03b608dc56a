import DAV
import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP

/// Who a CalDAV request comes from: HTTP Basic with the account's email and one of its app
/// passwords (what every CalDAV client speaks), or a Bearer access token (the web app).
package struct DAVAuthentication: Sendable {
    package let store: any Store
    package let appPasswords: AppPasswords
    package let sessions: AccessSessions

    package init(store: any Store, appPasswords: AppPasswords, sessions: AccessSessions) {
        self.store = store
        self.appPasswords = appPasswords
        self.sessions = sessions
    }

    /// Who is asking: an account, nobody (answered 401), or someone who must wait (429).
    package enum Caller: Sendable {
        case account(Account)
        case anonymous
        case throttled(retryAfterSeconds: Int)
    }

    package func caller(for request: Request, clientAddress: String?) async throws -> Caller {
        guard let header = request.headers[.authorization] else { return .anonymous }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return .anonymous }
        let credentials = parts[1].trimmingCharacters(in: .whitespaces)
        switch parts[0].lowercased() {
        case "basic":
            return try await basic(credentials, clientAddress: clientAddress)
        case "bearer":
            do {
                return .account(try await sessions.identity(accessToken: credentials).account)
            } catch is APIError {
                return .anonymous
            }
        default:
            return .anonymous
        }
    }

    private func basic(_ encoded: String, clientAddress: String?) async throws -> Caller {
        guard encoded.utf8.count <= 1024, let data = Data(base64Encoded: encoded),
              let decoded = String(data: data, encoding: .utf8),
              let colon = decoded.firstIndex(of: ":")
        else { return .anonymous }
        let username = String(decoded[..<colon])
        let password = String(decoded[decoded.index(after: colon)...])
        // iOS 18.4 and later percent-encode the username ("me%40example.com").
        let usernames = [username, username.removingPercentEncoding].compactMap { $0 }
        switch try await appPasswords.authenticate(usernames: usernames, password: password, clientAddress: clientAddress) {
        case .signedIn(let account, _): return .account(account)
        case .refused: return .anonymous
        case .throttled(let seconds): return .throttled(retryAfterSeconds: seconds)
        }
    }
}
