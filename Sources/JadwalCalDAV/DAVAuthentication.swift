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

    /// The account, or nil when the request carries no usable credentials (answered with 401).
    package func account(for request: Request) async throws -> Account? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let credentials = parts[1].trimmingCharacters(in: .whitespaces)
        switch parts[0].lowercased() {
        case "basic":
            return try await basic(credentials)
        case "bearer":
            do {
                return try await sessions.identity(accessToken: credentials).account
            } catch is APIError {
                return nil
            }
        default:
            return nil
        }
    }

    private func basic(_ encoded: String) async throws -> Account? {
        guard encoded.utf8.count <= 1024, let data = Data(base64Encoded: encoded),
              let decoded = String(data: data, encoding: .utf8),
              let colon = decoded.firstIndex(of: ":")
        else { return nil }
        let username = String(decoded[..<colon])
        let password = String(decoded[decoded.index(after: colon)...])
        // iOS 18.4 and later percent-encode the username ("me%40example.com").
        let candidates = [username, username.removingPercentEncoding].compactMap { $0 }
        for candidate in Set(candidates) {
            guard let email = try? EmailAddress(candidate),
                  let (account, active) = try await store.read({ tx in try await tx.accountWithAppPasswords(email: email) }),
                  !account.isDisabled
            else { continue }
            if try await appPasswords.verify(accountID: account.id, presented: password, against: active) != nil { return account }
        }
        return nil
    }
}
