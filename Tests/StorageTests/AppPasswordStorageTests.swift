import Foundation
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

@Suite("App passwords with their account, in one query, on every engine")
struct AppPasswordStorageTests {
    @Test("the account and its active passwords, newest first; revoked ones left out", arguments: TestEnvironment.engines)
    func accountWithPasswords(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let t0 = Date(timeIntervalSince1970: 1_790_000_000)
        let email = try EmailAddress("phone@example.com")
        let account = Account(id: UUID(), email: email, name: "Sara", timeZone: "Asia/Riyadh", language: .arabic, createdAt: t0)
        let old = AppPassword(id: UUID(), accountID: account.id, name: "iPad", passwordHash: "h1", createdAt: t0)
        let new = AppPassword(id: UUID(), accountID: account.id, name: "iPhone", passwordHash: "h2", createdAt: t0 + 60)
        let gone = AppPassword(id: UUID(), accountID: account.id, name: "Mac", passwordHash: "h3", createdAt: t0 + 120)
        try await store.transaction { tx in
            try await tx.insertAccount(account)
            #expect(try await tx.accountWithAppPasswords(email: email)?.1.isEmpty == true, "an account without passwords")
            for password in [old, new, gone] { try await tx.insertAppPassword(password) }
            _ = try await tx.revokeAppPassword(id: gone.id, accountID: account.id, at: t0 + 180)
        }
        let found = try await store.read { tx in try await tx.accountWithAppPasswords(email: email) }
        let (reading, passwords) = try #require(found)
        #expect(reading == account)
        #expect(passwords.map(\.name) == ["iPhone", "iPad"])
        #expect(passwords.first?.passwordHash == "h2")
        #expect(try await store.read { tx in try await tx.accountWithAppPasswords(email: try EmailAddress("nobody@example.com")) } == nil)
        try await store.shutdown()
    }
}
