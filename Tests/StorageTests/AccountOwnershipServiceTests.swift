import Conversations
import Crypto
import Foundation
import ICalendar
import JadwalCore
import JadwalTestSupport
import PrayerTimes
import Storage
import Testing

/// Owning one's account, in process on a real store: the first-run guide, a new sign-in address,
/// the export, and deletion, which must leave no row of the account in any table of the schema.
@Suite("Owning one's account on every engine")
struct AccountOwnershipServiceTests {
    /// Monday 21 September 2026, 17:13 in Riyadh.
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)
    static let cipher = MessageCipher(key: SymmetricKey(data: Data(repeating: 9, count: 32)))

    /// The emails as jobs a test can read: the kind says which, the payload who it goes to (as
    /// an unsealed email would; the real deletion notice is sealed, so it names nobody).
    static func mail(_ kind: String, to email: EmailAddress?, token: SecretToken? = nil, about account: Account? = nil, now: Date) -> Job {
        let payload = "{" + [email.map { #""to":"\#($0.value)""# }, token.map { #""token":"\#($0.value)""# }].compactMap { $0 }.joined(separator: ",") + "}"
        return Job.new(JobKind(rawValue: "test.\(kind)"), payload: payload, runAt: now, now: now, id: UUID(), subject: account.map(AccountLinkRecord.mailSubject))
    }

    struct Rig {
        let store: SQLStore
        let clock: TestClock
        let ownership: AccountOwnership
        let signIn: SignIn

        init(_ engine: TestEngine) async throws {
            store = try await TestEnvironment.freshStore(engine)
            clock = TestClock(AccountOwnershipServiceTests.t0)
            let (store, clock) = (store, clock.clock)
            ownership = AccountOwnership(
                firstRun: FirstRun(store: store, clock: clock),
                emailChanges: EmailChanges(
                    store: store, clock: clock, random: .system,
                    notices: .init(
                        confirmation: { token, account, email, now in AccountOwnershipServiceTests.mail("email-confirm", to: email, token: token, about: account, now: now) },
                        addressTaken: { _, email, now in AccountOwnershipServiceTests.mail("email-taken", to: email, now: now) },
                        changed: { _, old, now in AccountOwnershipServiceTests.mail("email-changed", to: old, now: now) })),
                export: AccountExport(store: store, clock: clock, random: .system),
                deletion: AccountDeletion(
                    store: store, clock: clock, random: .system,
                    notices: .init(
                        confirmation: { token, account, now in AccountOwnershipServiceTests.mail("delete-confirm", to: account.email, token: token, about: account, now: now) },
                        deleted: { _, now in AccountOwnershipServiceTests.mail("account-deleted", to: nil, now: now) })))
            signIn = SignIn(
                store: store, clock: clock, random: .system,
                notices: .init(
                    magicLink: { _, email, _, now in AccountOwnershipServiceTests.mail("magic-link", to: email, now: now) },
                    welcome: { account, now in AccountOwnershipServiceTests.mail("welcome", to: account.email, now: now) }),
                defaultTimeZone: "Asia/Riyadh")
        }

        /// A person signed in with a verified address, as a first sign-in makes them.
        func person(_ email: String, name: String) async throws -> Account {
            try await signIn.signInVerified(
                email: try EmailAddress(email), name: name, method: .google, client: .init(address: "192.0.2.7", userAgent: "tests")
            ).account
        }

        /// The queued test emails of a kind, oldest first (tests move the clock between two of a kind).
        func queued(_ kind: String) async throws -> [Job] {
            try await store.read { tx in try await tx.jobs(state: .queued, limit: 1000) }.filter { $0.kind.rawValue == "test.\(kind)" }
                .sorted { $0.createdAt < $1.createdAt }
        }

        func token(in job: Job) throws -> SecretToken {
            let payload = try JSONDecoder().decode([String: String].self, from: Data(job.payload.utf8))
            return SecretToken(presented: try #require(payload["token"]))
        }

        func account(_ id: UUID) async throws -> Account? {
            try await store.read { tx in try await tx.account(id: id) }
        }

        func calendar(_ account: Account, _ slug: String) async throws -> CalendarCollection {
            try #require(try await store.read { tx in try await tx.calendar(accountID: account.id, slug: slug) })
        }
    }

    // MARK: First run

    @Test("the first run is pending until finished or skipped, and proposes a place from the zone", arguments: TestEnvironment.engines)
    func firstRun(engine: TestEngine) async throws {
        let rig = try await Rig(engine)
        let sara = try await rig.person("sara@example.com", name: "Sara")
        #expect(try await rig.ownership.firstRun.status(accountID: sara.id) == .pending)
        rig.clock.advance(by: 60)
        try await rig.ownership.firstRun.finish(.skipped, accountID: sara.id)
        #expect(try await rig.ownership.firstRun.status(accountID: sara.id) == .finished(.init(state: .skipped, at: Self.t0 + 60)))
        // Reopened from settings and finished: the newer answer stands.
        try await rig.ownership.firstRun.finish(.completed, accountID: sara.id)
        #expect(try await rig.ownership.firstRun.status(accountID: sara.id).name == "completed")

        let riyadh = FirstRun.Proposal(timeZone: "Asia/Riyadh")
        #expect(riyadh.city?.englishName == "Riyadh" && riyadh.method == .ummAlQura)
        #expect(FirstRun.Proposal(timeZone: "Europe/London").city?.englishName == "London")
        #expect(FirstRun.Proposal(timeZone: "Africa/Cairo").method == .egyptian)
        #expect(FirstRun.Proposal(timeZone: "UTC").city == nil)
    }

    @Test("accounts made before the first run existed count as through it", arguments: TestEnvironment.engines)
    func existingAccounts(engine: TestEngine) async throws {
        // The migration marks every account it finds; a fresh store has none, so one made now is pending.
        let rig = try await Rig(engine)
        let created = try await Accounts(store: rig.store, clock: rig.clock.clock, random: .system)
            .create(email: try EmailAddress("new@example.com"), name: "", timeZone: "UTC", language: .english)
        #expect(try await rig.ownership.firstRun.status(accountID: created.id) == .pending)
    }

    // MARK: A new address

    @Test("a new address: a link to it, the change when it is opened, a notice to the old one; links work once and in time",
          arguments: TestEnvironment.engines)
    func emailChange(engine: TestEngine) async throws {
        let rig = try await Rig(engine)
        let sara = try await rig.person("sara@example.com", name: "Sara")
        let changes = rig.ownership.emailChanges
        await #expect(throws: EmailChanges.Problem.sameAddress) { try await changes.request(try EmailAddress("SARA@example.com"), accountID: sara.id) }

        try await changes.request(try EmailAddress("sara.new@example.com"), accountID: sara.id)
        let sent = try #require(try await rig.queued("email-confirm").first)
        #expect(sent.payload.contains(#""to":"sara.new@example.com""#))
        let token = try rig.token(in: sent)
        let pending = try await changes.pending(token)
        #expect(pending.account.id == sara.id && pending.newEmail.value == "sara.new@example.com")
        #expect(try await rig.account(sara.id)?.email.value == "sara@example.com", "nothing changes before the link is opened")

        let changed = try await changes.confirm(token)
        let stored = try await rig.account(sara.id)
        #expect(changed.email.value == "sara.new@example.com" && stored?.email == changed.email)
        let notice = try #require(try await rig.queued("email-changed").first)
        #expect(notice.payload.contains(#""to":"sara@example.com""#), "the old address is told")
        await #expect(throws: EmailChanges.Problem.usedLink) { try await changes.confirm(token) }
        await #expect(throws: EmailChanges.Problem.unknownLink) { try await changes.confirm(SecretToken(presented: "made-up")) }

        // Expired: 15 minutes.
        rig.clock.advance(by: 1)
        try await changes.request(try EmailAddress("sara.third@example.com"), accountID: sara.id)
        let late = try rig.token(in: try #require(try await rig.queued("email-confirm").last))
        rig.clock.advance(by: 15 * 60 + 1)
        await #expect(throws: EmailChanges.Problem.expiredLink) { try await changes.confirm(late) }
    }

    @Test("an address another account has: the same answer, a note to that address, no link; taken in between, refused",
          arguments: TestEnvironment.engines)
    func emailTaken(engine: TestEngine) async throws {
        let rig = try await Rig(engine)
        let sara = try await rig.person("sara@example.com", name: "Sara")
        _ = try await rig.person("omar@example.com", name: "Omar")
        let changes = rig.ownership.emailChanges
        try await changes.request(try EmailAddress("omar@example.com"), accountID: sara.id)
        #expect(try await rig.queued("email-confirm").isEmpty)
        #expect(try await rig.queued("email-taken").first?.payload.contains("omar@example.com") == true)

        // Free when asked, taken before the link is opened.
        try await changes.request(try EmailAddress("later@example.com"), accountID: sara.id)
        let token = try rig.token(in: try #require(try await rig.queued("email-confirm").first))
        _ = try await rig.person("later@example.com", name: "Later")
        await #expect(throws: EmailChanges.Problem.addressTaken) { try await changes.confirm(token) }
        #expect(try await rig.account(sara.id)?.email.value == "sara@example.com")

        // Five a quarter hour, taken or not.
        for index in 0..<3 { try await changes.request(try EmailAddress("n\(index)@example.com"), accountID: sara.id) }
        await #expect(throws: EmailChanges.Problem.rateLimited(retryAfterSeconds: 900)) {
            try await changes.request(try EmailAddress("n9@example.com"), accountID: sara.id)
        }
    }

    // MARK: Export

    @Test("the export: one .ics per calendar, JSON for the rest, never the words of a chat", arguments: TestEnvironment.engines)
    func export(engine: TestEngine) async throws {
        let rig = try await Rig(engine)
        let sara = try await rig.person("sara@example.com", name: "Sara")
        let writes = CalendarWrites(store: rig.store, clock: rig.clock.clock, random: .system)
        _ = try await writes.put(try CalendarObjectContent(text: Self.event("dinner", "Dinner with Huda")), name: "dinner.ics",
                                 in: try await rig.calendar(sara, "personal"), source: .api)
        _ = try await writes.put(try CalendarObjectContent(text: Self.todo("milk", "Buy milk")), name: "milk.ics",
                                 in: try await rig.calendar(sara, "tasks"), source: .api)
        let inbox = ChatInbox(store: rig.store, clock: rig.clock.clock, random: .system, cipher: Self.cipher, extractor: RuleExtractor(), publicURL: "")
        _ = try await inbox.receive([
            IncomingChatMessage(chatKey: "huda", externalID: "1", sender: "Huda", fromMe: false, sentAt: Self.t0 - 60, text: "my secret words are here"),
        ], source: .connector, accountID: sara.id)
        try await rig.store.transaction { tx in
            try await tx.insertTrackerEntry(TrackerEntry(
                id: UUID(), metric: "water", start: Self.t0, end: nil, value: 2, unit: "l", kind: nil, note: "hot day", createdAt: Self.t0, updatedAt: Self.t0),
                accountID: sara.id)
            try await tx.savePrayerSettings(PrayerSettings(latitude: 24.69, longitude: 46.72, timeZone: "Asia/Riyadh", method: .ummAlQura),
                                            accountID: sara.id, at: Self.t0)
        }
        try await rig.ownership.firstRun.finish(.completed, accountID: sara.id)

        let files = try await rig.ownership.export.files(accountID: sara.id)
        let byPath = Dictionary(files.map { ($0.path, String(decoding: $0.data, as: UTF8.self)) }, uniquingKeysWith: { a, _ in a })
        #expect(Set(byPath.keys).isSuperset(of: [
            "calendars/personal.ics", "calendars/whatsapp-events.ics", "calendars/tasks.ics", "account.json", "settings.json", "tasks.json",
            "routines.json", "goals.json", "conversations.json", "notifications.json",
        ]), "\(byPath.keys.sorted())")
        let personal = try ICalendarParser().parseCalendar(try #require(byPath["calendars/personal.ics"]))
        #expect(personal.components.contains { $0.first("SUMMARY")?.text == "Dinner with Huda" })
        for (path, text) in byPath where path.hasSuffix(".json") {
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            #expect(object?["format"] as? String == "jadwal-export" && object?["version"] as? Int == 1 && object?["data"] != nil, "\(path)")
        }
        #expect(byPath["tasks.json"]?.contains("Buy milk") == true)
        #expect(byPath["goals.json"]?.contains("hot day") == true)
        #expect(byPath["settings.json"]?.contains("UmmAlQura") == true)
        #expect(byPath["account.json"]?.contains(#""email" : "sara@example.com""#) == true && byPath["account.json"]?.contains(#""state" : "completed""#) == true)
        let conversations = try #require(byPath["conversations.json"])
        #expect(conversations.lowercased().contains("huda") && conversations.contains(#""state" : "#), "\(conversations)")
        #expect(!files.contains { String(decoding: $0.data, as: UTF8.self).contains("secret words") }, "no file holds a message's words")
        #expect(rig.ownership.export.fileName() == "jadwal-export-2026-09-21.zip")
    }

    static func event(_ uid: String, _ title: String, start: String = "20261001T170000Z", end: String = "20261001T180000Z", alarm: Bool = false) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN", "BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260901T000000Z",
          "DTSTART:\(start)", "DTEND:\(end)", "SUMMARY:\(title)"]
            + (alarm ? ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Soon", "TRIGGER:-PT15M", "END:VALARM"] : [])
            + ["END:VEVENT", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    static func todo(_ uid: String, _ title: String) -> String {
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Jadwal Tests//EN", "BEGIN:VTODO", "UID:\(uid)", "DTSTAMP:20260901T000000Z",
         "DUE;VALUE=DATE:20261002", "SUMMARY:\(title)", "END:VTODO", "END:VCALENDAR"].joined(separator: "\r\n") + "\r\n"
    }
}
