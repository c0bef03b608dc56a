import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
@testable import JadwalHTTP
@testable import JadwalCalDAV
import JadwalTestSupport
import Storage
import Testing

/// Issue 22's quotas: an account past its limit is refused with 507 at every front door, a
/// write that makes room always goes through, and the usage the check reads stays exact.
@Suite("Account quota")
struct QuotaTests {
    struct Calendars: Decodable { struct Item: Decodable { let id: String; let slug: String }; let calendars: [Item] }

    /// The usage storage keeps, beside the same figures counted from the objects themselves.
    static func usage(_ store: SQLStore, _ accountID: UUID) async throws -> (kept: StoredUsage, counted: StoredUsage) {
        try await store.read { tx in
            let calendars = try await tx.calendars(accountID: accountID)
            var objects = 0
            var bytes: Int64 = 0
            for calendar in calendars {
                let stored = try await tx.calendarObjects(calendarID: calendar.id)
                objects += stored.count
                bytes += stored.reduce(0) { $0 + Int64($1.icalendar.utf8.count) }
            }
            return (try await tx.storedUsage(accountID: accountID), StoredUsage(calendars: calendars.count, objects: objects, bytes: bytes))
        }
    }

    @Test("the web app past the quota answers a page in the person's language (507), not JSON, and nothing is saved")
    func webPage() async throws {
        try await ServerHarness.run(configure: { $0.workers = 0; $0.accountQuota = AccountQuota(bytes: 1 << 20, objects: 1, calendars: 10) }) { harness, client in
            var browser = TestBrowser()
            try await browser.signIn("fullweb@example.com", client: client, harness: harness)
            let page = try await browser.get(client, "/events/new?date=2026-09-22")
            let csrf = try #require(TestBrowser.csrf(in: page))
            func event(_ title: String) -> [(String, String)] {
                [("title", title), ("startDate", "2026-09-22"), ("startTime", "20:00"), ("endDate", "2026-09-22"), ("endTime", "21:00")]
            }
            #expect(try await browser.post(client, "/events/new", event("Dinner"), csrf: csrf).status == .seeOther)
            let refused = try await browser.post(client, "/events/new", event("Second dinner"), csrf: csrf)
            #expect(refused.status.code == 507, "\(refused.status)")
            #expect(refused.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(refused.text.contains("Nothing was saved: your account may hold 1 events and to-dos and holds 1."), "\(refused.text)")
            let week = try await browser.get(client, "/calendar?view=week&date=2026-09-22")
            #expect(week.text.contains("Dinner") && !week.text.contains("Second dinner"))
        }
    }

    @Test("objects past the quota: CalDAV 507 quota-not-exceeded, the API 507 quota_exceeded; edits and deletes go through; usage exact", arguments: TestEnvironment.engines)
    func objects(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0; $0.accountQuota = AccountQuota(bytes: 1 << 20, objects: 3, calendars: 10) }) { harness, client in
            let user = try await DAVUser.make("full@example.com", harness: harness, client: client)
            let calendar = user.calendar("personal")
            for uid in ["a", "b", "c"] {
                #expect(try await client.putICS(calendar + "\(uid).ics", as: user, ICS.event(uid: uid)).status == .created)
            }
            let refused = try await client.putICS(calendar + "d.ics", as: user, ICS.event(uid: "d"))
            #expect(refused.status.code == 507 && refused.davCondition == .quotaNotExceeded, "\(refused.status) \(refused.text)")
            #expect(refused.text.contains("may hold 3 events and to-dos"), "\(refused.text)")
            #expect(try await client.dav(.get, calendar + "d.ics", as: user).status == .notFound, "nothing was written")

            #expect(try await client.putICS(calendar + "a.ics", as: user, ICS.event(uid: "a", summary: "A longer title than before")).status == .noContent,
                    "an edit adds no object, so it goes through")
            let tokens = try await client.signIn("full@example.com", harness: harness)
            let personal = try #require(try await client.send(.get, "/api/v1/calendars", token: tokens.accessToken).json(Calendars.self)
                .calendars.first { $0.slug == "personal" })
            let api = try await client.send(.post, "/api/v1/calendars/\(personal.id)/events", json: #"{"title": "Lunch", "start": "2026-11-23T13:00"}"#,
                                            token: tokens.accessToken)
            #expect(api.status.code == 507 && api.errorCode == "quota_exceeded" && api.text.contains("Nothing was saved"), "\(api.status) \(api.text)")

            #expect(try await client.dav(.delete, calendar + "b.ics", as: user).status == .noContent)
            #expect(try await client.putICS(calendar + "d.ics", as: user, ICS.event(uid: "d")).status == .created, "a delete made room")

            let usage = try await Self.usage(harness.instance.store, user.accountID)
            #expect(usage.kept == usage.counted && usage.kept.objects == 3)
            let quota = try ParsedMultistatus(try await client.propfind(user.home, as: user, ["d:quota-used-bytes", "d:quota-available-bytes"]))
            #expect(quota.entries.first?.text(.quotaUsedBytes) == String(usage.counted.bytes))
            #expect(quota.entries.first?.text(.quotaAvailableBytes) == String((1 << 20) - usage.counted.bytes), "the operator's quota is what is advertised")
        }
    }

    @Test("bytes and calendars past the quota are refused; a smaller edit of a full account goes through", arguments: TestEnvironment.engines)
    func bytesAndCalendars(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine, configure: { $0.workers = 0 }) { harness, client in
            let user = try await DAVUser.make("bytes@example.com", harness: harness, client: client)
            let calendar = user.calendar("personal")
            #expect(try await client.putICS(calendar + "a.ics", as: user, ICS.event(uid: "a", summary: String(repeating: "x", count: 2000))).status == .created)
            let before = try await Self.usage(harness.instance.store, user.accountID)
            #expect(before.kept == before.counted)

            // The same server, with a quota the account is now at.
            let tight = AccountQuota(bytes: before.kept.bytes, objects: 100, calendars: before.kept.calendars)
            let writes = CalendarWrites(store: QuotaStore(inner: harness.instance.store, accountQuota: tight), clock: .system, random: .system)
            let content = try CalendarObjectContent(text: ICS.event(uid: "b"))
            let personal = try #require(try await harness.instance.store.read { tx in try await tx.calendar(accountID: user.accountID, slug: "personal") })
            await #expect(throws: AccountQuota.Exceeded(limit: .bytes, allowed: before.kept.bytes, used: before.kept.bytes)) {
                _ = try await writes.put(content, name: "b.ics", in: personal, source: .caldav)
            }
            let smaller = try CalendarObjectContent(text: ICS.event(uid: "a", summary: "short"))
            #expect(try await writes.put(smaller, name: "a.ics", in: personal, source: .caldav).created == false, "shrinking is always allowed")
            let calendars = JadwalCore.Calendars(store: QuotaStore(inner: harness.instance.store, accountQuota: tight), clock: .system, random: .system)
            let account = try #require(try await harness.instance.store.read { tx in try await tx.account(id: user.accountID) })
            let draft = try calendars.validated(JadwalCore.Calendars.Draft(slug: "more", properties: CalendarPropertiesChange(displayName: "More")), account: account)
            await #expect(throws: AccountQuota.Exceeded.self) { _ = try await calendars.create(draft) }
            let after = try await Self.usage(harness.instance.store, user.accountID)
            #expect(after.kept == after.counted && after.kept.bytes < before.kept.bytes)
        }
    }
}

/// The server's store with another quota: what an operator's lower limit does to the same data.
private struct QuotaStore: Store {
    let inner: SQLStore
    let accountQuota: AccountQuota

    func transaction<T: Sendable>(_ body: @Sendable (any StoreTransaction) async throws -> T) async throws -> T { try await inner.transaction(body) }
    func read<T: Sendable>(_ body: @Sendable (any StoreTransaction) async throws -> T) async throws -> T { try await inner.read(body) }
    func checkReady() async throws { try await inner.checkReady() }
    func shutdown() async throws {}
}
