import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalMail
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs
import JadwalTestSupport
import Testing

@Suite("App passwords")
struct AppPasswordTests {
    struct Created: Decodable { let id: String; let name: String; let password: String?; let username: String? }
    struct Listed: Decodable { let appPasswords: [Created] }

    @Test("create shows the password once; list hides it; revoke ends it", arguments: TestEnvironment.engines)
    func lifecycle(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let tokens = try await client.signIn("devices@example.com", harness: harness)
            let created = try await client.send(.post, "/api/v1/app-passwords", json: #"{"name": "Sara's iPhone"}"#, token: tokens.accessToken)
            #expect(created.status == .created, "\(created.text)")
            let body = try created.json(Created.self)
            let password = try #require(body.password)
            #expect(body.username == "devices@example.com")
            #expect(password.range(of: #"^[a-z2-9]{5}(-[a-z2-9]{5}){4}$"#, options: .regularExpression) != nil, "a lookup id, then four secret groups")

            let listed = try await client.send(.get, "/api/v1/app-passwords", token: tokens.accessToken)
            let list = try listed.json(Listed.self).appPasswords
            #expect(list.map(\.name) == ["Sara's iPhone"] && list[0].password == nil)
            #expect(!listed.text.contains(password))

            // Stored as bcrypt, and checked against it.
            let accountID = try #require(UUID(uuidString: tokens.account.id))
            let stored = try await harness.instance.store.read { tx in try await tx.appPasswords(accountID: accountID) }
            #expect(stored.first?.passwordHash.hasPrefix("$2") == true && stored.first?.passwordHash != password)
            let passwords = harness.instance.appPasswords
            #expect(try await passwords.verify(accountID: accountID, presented: password)?.name == "Sara's iPhone")
            #expect(try await passwords.verify(accountID: accountID, presented: password)?.name == "Sara's iPhone", "from the recent-check cache")
            #expect(try await passwords.verify(accountID: accountID, presented: password + "x") == nil)
            #expect(try await passwords.verify(accountID: UUID(), presented: password) == nil, "another account's password")
            #expect(try await passwords.verify(accountID: accountID, presented: "") == nil)

            // Another account cannot revoke it; its owner can, and the cache does not outlive it.
            let stranger = try await client.signIn("stranger@example.com", harness: harness)
            #expect(try await client.send(.delete, "/api/v1/app-passwords/\(body.id)", token: stranger.accessToken).status == .notFound)
            #expect(try await client.send(.delete, "/api/v1/app-passwords/\(body.id)", token: tokens.accessToken).status == .noContent)
            #expect(try await client.send(.delete, "/api/v1/app-passwords/\(body.id)", token: tokens.accessToken).status == .notFound)
            #expect(try await passwords.verify(accountID: accountID, presented: password) == nil)
            #expect(try await client.send(.get, "/api/v1/app-passwords", token: tokens.accessToken).json(Listed.self).appPasswords.isEmpty)
        }
    }

    @Test("bad requests name the problem")
    func badInput() async throws {
        try await ServerHarness.run { harness, client in
            let tokens = try await client.signIn("bad@example.com", harness: harness)
            for body in [#"{"name": ""}"#, #"{"name": "   "}"#, #"{"name": "\#(String(repeating: "x", count: 101))"}"#, #"{"name": "a\u0000b"}"#] {
                let response = try await client.send(.post, "/api/v1/app-passwords", json: body, token: tokens.accessToken)
                #expect(response.status == .badRequest && response.errorCode == "invalid_field", "\(body)")
            }
            #expect(try await client.send(.post, "/api/v1/app-passwords", json: "{}", token: tokens.accessToken).errorCode == "missing_field")
            #expect(try await client.send(.post, "/api/v1/app-passwords", json: #"{"name": "x"}"#).status == .unauthorized)
            #expect(try await client.send(.delete, "/api/v1/app-passwords/not-a-uuid", token: tokens.accessToken).status == .notFound)
        }
    }
}
