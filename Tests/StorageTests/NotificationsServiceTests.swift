import Foundation
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

/// The notifications service in process, on a real store: the feed and its read marks, what a
/// stream has not sent, the settings' rules and the devices, without HTTP.
@Suite("Notifications service on every engine")
struct NotificationsServiceTests {
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)

    @Test("feed, read marks, the stream's reads, settings and devices", arguments: TestEnvironment.engines)
    func service(engine: TestEngine) async throws {
        let store = try await TestEnvironment.freshStore(engine)
        let clock = TestClock(Self.t0)
        let account = Account(id: UUID(), email: try EmailAddress("n@example.com"), name: "Omar", timeZone: "Asia/Riyadh", language: .english, createdAt: Self.t0)
        try await store.transaction { tx in try await tx.insertAccountWithDefaultCalendars(account, now: Self.t0, random: .system) }
        let notifications = Notifications(store: store, clock: clock.clock, random: .system)
        #expect(try await notifications.newestSequence(accountID: account.id) == 0)

        for index in 1...3 {
            let draft = NotificationDraft(kind: .conflict, reasonKey: "test:\(index)", title: "Conflict \(index)", body: "", links: [:], urgent: false)
            _ = try await store.transaction { tx in try await NotificationDispatch.post(draft, account: account, now: Self.t0, random: .system, tx: tx) }
        }
        let (items, unread) = try await notifications.feed(accountID: account.id, beforeSequence: nil, unreadOnly: false, limit: 10)
        #expect(items.map(\.title) == ["Conflict 3", "Conflict 2", "Conflict 1"] && unread == 3)
        let newest = try await notifications.newestSequence(accountID: account.id)
        let (after, nextHeld, _) = try await notifications.delivered(after: newest - 2, accountID: account.id, limit: 10)
        #expect(after.map(\.title) == ["Conflict 2", "Conflict 3"] && nextHeld == nil)

        let marked = try await notifications.markRead(ids: [items[0].id, UUID()], accountID: account.id)
        #expect(marked.marked == 1 && marked.unread == 2, "unknown ids are ignored")
        await #expect(throws: Notifications.Problem.tooManyIDs(limit: Notifications.readLimit)) {
            try await notifications.markRead(ids: (0...Notifications.readLimit).map { _ in UUID() }, accountID: account.id)
        }
        #expect(try await notifications.markAllRead(accountID: account.id) == 2)
        #expect(try await notifications.unreadCount(accountID: account.id) == 0)

        let saved = try await notifications.updateSettings(NotificationSettingsChange(email: ["conflict"], quietDuringPrayer: false), accountID: account.id)
        #expect(saved.emailKinds == [.conflict] && !saved.quietDuringPrayer)
        await #expect(throws: NotificationSettingsChange.Problem.unknownKind(field: "push", name: "carrier-pigeon")) {
            try await notifications.updateSettings(NotificationSettingsChange(push: ["carrier-pigeon"]), accountID: account.id)
        }
        #expect(try await notifications.settings(accountID: account.id) == saved, "a refused change changes nothing")

        let device = try await notifications.registerDevice(token: String(repeating: "ab", count: 32), name: "  ", accountID: account.id)
        #expect(device.name == "Apple device")
        await #expect(throws: Notifications.Problem.invalidDeviceName) {
            try await notifications.registerDevice(token: String(repeating: "cd", count: 32), name: "bad\u{7}name", accountID: account.id)
        }
        #expect(try await notifications.devices(accountID: account.id).map(\.id) == [device.id])
        await #expect(throws: Notifications.Problem.noDevice) { try await notifications.removeDevice(id: UUID(), accountID: account.id) }
        try await notifications.removeDevice(id: device.id, accountID: account.id)
        #expect(try await notifications.devices(accountID: account.id).isEmpty)
        try await store.shutdown()
    }
}
