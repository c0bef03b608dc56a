import Foundation
import JadwalCore
import Testing

@Suite("Account rules")
struct AccountRulesTests {
    @Test("email addresses are normalised", arguments: [
        ("  Sara@Example.COM ", "sara@example.com"),
        ("a.b+calendar@mail.example.org", "a.b+calendar@mail.example.org"),
        ("user@xn--mgbh0fb.example", "user@xn--mgbh0fb.example"),
    ])
    func validEmails(raw: String, normalised: String) throws {
        #expect(try EmailAddress(raw).value == normalised)
    }

    @Test("invalid email addresses say what is wrong", arguments: [
        ("", EmailAddress.Problem.empty),
        ("no-at-sign", .missingAt),
        ("two@@example.com", .missingAt),
        ("@example.com", .invalidLocalPart),
        ("a..b@example.com", .invalidLocalPart),
        ("sp ace@example.com", .invalidLocalPart),
        ("a@localhost", .invalidDomain),
        ("a@-bad.example", .invalidDomain),
        ("a@exa_mple.com", .invalidDomain),
        (String(repeating: "a", count: 250) + "@example.com", .tooLong),
    ])
    func invalidEmails(raw: String, problem: EmailAddress.Problem) {
        #expect(throws: problem) { try EmailAddress(raw) }
    }

    @Test("profile changes are validated field by field")
    func profileChanges() throws {
        let account = Account(id: UUID(), email: try EmailAddress("a@example.com"), name: "", timeZone: "UTC", language: .english, createdAt: Date())
        let changed = try ProfileChange(name: "  سارة  ", timeZone: "Asia/Riyadh", language: .arabic).applied(to: account)
        #expect(changed.name == "سارة" && changed.timeZone == "Asia/Riyadh" && changed.language == .arabic)
        #expect(throws: ProfileChange.Problem.unknownTimeZone("Mars/Olympus")) { try ProfileChange(timeZone: "Mars/Olympus").applied(to: account) }
        #expect(throws: ProfileChange.Problem.unknownTimeZone("EST")) { try ProfileChange(timeZone: "EST").applied(to: account) }
        #expect(throws: ProfileChange.Problem.nameTooLong(limit: 200)) {
            try ProfileChange(name: String(repeating: "x", count: 201)).applied(to: account)
        }
        #expect(throws: ProfileChange.Problem.nameHasControlCharacters) { try ProfileChange(name: "a\u{0}b").applied(to: account) }
        #expect(try ProfileChange().applied(to: account) == account)
    }

    @Test("secret tokens are 32 random bytes in base64url; only the digest is kept")
    func secretTokens() {
        let token = SecretToken(random: .system)
        #expect(token.value.count == 43)
        #expect(token.value.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(Data(base64URLEncoded: token.value)?.count == 32)
        #expect(token.digest.hex.count == 64 && token.digest == TokenDigest(of: token.value))
        #expect(SecretToken(random: .system) != token)
        #expect(!"\(token)".contains(token.value))
        // SHA-256 of "abc", the FIPS 180-2 example.
        #expect(TokenDigest(of: "abc").hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("retry delays grow exponentially, with jitter, up to the cap")
    func retryPolicy() {
        let policy = RetryPolicy(base: .seconds(5), cap: .seconds(60))
        #expect(policy.delay(afterAttempts: 1, jitter: 1) == .seconds(5))
        #expect(policy.delay(afterAttempts: 2, jitter: 1) == .seconds(10))
        #expect(policy.delay(afterAttempts: 3, jitter: 1) == .seconds(20))
        #expect(policy.delay(afterAttempts: 10, jitter: 1) == .seconds(60))
        #expect(policy.delay(afterAttempts: 1, jitter: 0) == .milliseconds(2500))
        #expect(policy.delay(afterAttempts: 1_000, jitter: 0.5) == .seconds(45))
    }
}
