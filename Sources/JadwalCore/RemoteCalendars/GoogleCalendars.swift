import Foundation

/// Google's side of "Connect Google Calendar": its consent page, its token endpoint and where its
/// CalDAV principals are. Implemented outside Core (JadwalFetch), through the same address rules
/// as every other fetch.
public protocol GoogleCalendarAuthorization: Sendable {
    /// Google's consent page for the person, asking for their calendars with a refresh token.
    func consentURL(state: String, redirectURI: String) -> String
    /// What the code Google gave the callback is worth: a refresh token and the Google address
    /// it belongs to.
    func redeem(code: String, redirectURI: String) async throws(FeedFetchFailure) -> (refreshToken: String, email: String)
    /// The CalDAV principal of a Google address, where discovery starts.
    func principalURL(email: String) -> String
}

/// Connects a person's Google Calendar as a CalDAV account: Google's CalDAV takes no password,
/// only OAuth. The person is sent to Google's consent page with a `state` sealed for them alone
/// (it names their account and expires in 10 minutes); the code Google sends back is redeemed
/// for a refresh token, which is sealed at rest like a password and is what the account's syncs
/// sign in with (`RemoteSignIn.google`). From there it is a connected account like any other.
public struct GoogleCalendars: Sendable {
    let accounts: CalDAVAccounts
    let google: any GoogleCalendarAuthorization
    let cipher: MessageCipher
    let clock: Clock

    public init(accounts: CalDAVAccounts, google: any GoogleCalendarAuthorization, cipher: MessageCipher, clock: Clock) {
        self.accounts = accounts
        self.google = google
        self.cipher = cipher
        self.clock = clock
    }

    /// How long the person has to agree on Google's page.
    public static let consentSeconds: TimeInterval = 600

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The state is not one this server made for this person, or it expired.
        case notStartedHere
        /// The person said no on Google's page (or Google said why not).
        case declined(String)

        public var description: String {
            switch self {
            case .notStartedHere: "this Google Calendar connection was not started by you here, or took longer than 10 minutes; start it again"
            case .declined(let reason): "Google did not give access to the calendar (\(reason))"
            }
        }
    }

    /// Where to send the person's browser.
    public func start(for account: Account, redirectURI: String) -> String {
        let expiry = Int(clock.now.addingTimeInterval(Self.consentSeconds).timeIntervalSince1970)
        let sealed = cipher.seal(data: Data(String(expiry).utf8), purpose: Self.statePurpose(account))
        return google.consentURL(state: (sealed.nonce + sealed.ciphertext).base64URLEncodedString(), redirectURI: redirectURI)
    }

    /// Finishes the connection with what Google's callback brought: the calendars are
    /// discovered with the new token (which proves it) and all of them mirrored.
    public func finish(for account: Account, code: String?, state: String, error: String?, redirectURI: String) async throws -> CalDAVAccounts.Connected {
        guard state.utf8.count <= 512, let bytes = Data(base64URLEncoded: state), bytes.count > 12,
              let opened = try? cipher.open(
                  data: SealedText(ciphertext: bytes.dropFirst(12), nonce: bytes.prefix(12), keyID: cipher.keyID), purpose: Self.statePurpose(account)),
              let expiry = Int(String(decoding: opened, as: UTF8.self)), Double(expiry) >= clock.now.timeIntervalSince1970
        else { throw Problem.notStartedHere }
        if let error { throw Problem.declined(String(error.prefix(100))) }
        guard let code, !code.isEmpty else { throw Problem.declined("no code came back") }
        let granted: (refreshToken: String, email: String)
        do {
            granted = try await google.redeem(code: code, redirectURI: redirectURI)
        } catch {
            throw CalDAVAccounts.problem(error)
        }
        return try await accounts.connect(
            url: google.principalURL(email: granted.email), username: granted.email, password: granted.refreshToken, mirror: nil, account: account,
            signIn: .google)
    }

    static func statePurpose(_ account: Account) -> String { "google-calendar-state:" + account.id.uuidString.lowercased() }
}
