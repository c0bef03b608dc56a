import Conversations
import Foundation
import JadwalCore
import JadwalTestSupport
import Storage
import Testing

/// Deleting an account leaves none of it in any table. The tables are listed from the database's
/// own catalogue, and every one of them must hold a row of the account before the deletion: a
/// table added later that this test does not fill fails it (fill it in `fill` below, and make
/// sure the deletion removes its rows).
@Suite("Deleting an account on every engine")
struct AccountDeletionTests {
    typealias Rig = AccountOwnershipServiceTests.Rig
    static let t0 = AccountOwnershipServiceTests.t0

    /// Tables that hold nothing of any account.
    static let withoutAccountData: Set<String> = ["schema_migrations"]

    @Test("every table holds a row of the account before, and none after; the other person keeps theirs", arguments: TestEnvironment.engines)
    func nothingLeft(engine: TestEngine) async throws {
        let rig = try await Rig(engine)
        let (sara, omar, omarConflict) = try await Self.fill(rig)

        let before = try await rig.store.contents()
        let marks = Self.identifiers(of: sara, in: before)
        for table in before where !Self.withoutAccountData.contains(table.name) {
            #expect(!Self.rows(of: table, naming: marks).isEmpty,
                    "table \(table.name) holds no row of the account: fill it in AccountDeletionTests.fill, and check the deletion removes it")
        }

        await #expect(throws: AccountDeletion.Problem.emailMismatch) {
            try await rig.ownership.deletion.delete(accountID: sara.id, confirmation: .typedEmail("omar@example.com"))
        }
        let deleted = try await rig.ownership.deletion.delete(accountID: sara.id, confirmation: .typedEmail("  Sara@Example.com "))
        #expect(deleted.id == sara.id)

        let after = try await rig.store.contents()
        #expect(after.map(\.name) == before.map(\.name))
        for table in after {
            let left = Self.rows(of: table, naming: marks)
            #expect(left.isEmpty, "table \(table.name) still holds \(left.count) row(s) of the deleted account: \(left.prefix(2))")
        }

        // Omar keeps his account, calendars, events and conflict (without Sara's event in it, checked again).
        #expect(try await rig.account(omar.id) != nil)
        let omarCalendars = try await rig.store.read { tx in try await tx.calendars(accountID: omar.id) }
        #expect(omarCalendars.map(\.slug).contains("personal"))
        let conflict = try #require(try await rig.store.read { tx in try await tx.conflict(id: omarConflict, accountID: omar.id) })
        #expect(conflict.status == .open && conflict.overlaps.map(\.kind) == [.prayer])
        let queued = try await rig.store.read { tx in try await tx.jobs(state: .queued, limit: 1000) }
        #expect(queued.contains { $0.kind == ConflictCheck.jobKind && $0.payload.lowercased().contains(omar.id.uuidString.lowercased()) },
                "Omar's conflict is checked again")
        #expect(queued.filter { $0.kind.rawValue == "test.account-deleted" }.count == 1, "the last email waits in the queue")
        let visibility = try await rig.store.read { tx in try await tx.busyTimeVisibility(accountID: omar.id) }
        #expect(visibility.audience == .named && visibility.allowed.map(\.value) == ["huda@example.com"])

        // Gone: signing in again makes a new, empty account.
        await #expect(throws: AccountDeletion.Problem.noAccount) {
            try await rig.ownership.deletion.delete(accountID: sara.id, confirmation: .typedEmail("sara@example.com"))
        }
        let again = try await rig.person("sara@example.com", name: "Sara")
        #expect(again.id != sara.id)
        #expect(try await CalendarShares(store: rig.store, clock: rig.clock.clock, random: .system).incoming(for: again).isEmpty,
                "an invitation sent to the old account does not pass to a new one with its address")
    }

    @Test("a deletion link: emailed, names the account, deletes it once; the operator deletes by address", arguments: TestEnvironment.engines)
    func links(engine: TestEngine) async throws {
        let rig = try await Rig(engine)
        let sara = try await rig.person("sara@example.com", name: "Sara")
        let omar = try await rig.person("omar@example.com", name: "Omar")
        let deletion = rig.ownership.deletion
        try await deletion.requestLink(accountID: sara.id)
        let token = try rig.token(in: try #require(try await rig.queued("delete-confirm").first))
        #expect(try await deletion.account(forLink: token).id == sara.id)
        await #expect(throws: AccountDeletion.Problem.unknownLink, "a link confirms its own account only") {
            try await deletion.delete(accountID: omar.id, confirmation: .link(token))
        }
        await #expect(throws: AccountDeletion.Problem.unknownLink) { try await deletion.delete(link: SecretToken(presented: "nope")) }
        rig.clock.advance(by: 1)
        try await deletion.requestLink(accountID: sara.id)
        let late = try rig.token(in: try #require(try await rig.queued("delete-confirm").last))
        rig.clock.advance(by: 15 * 60 + 1)
        await #expect(throws: AccountDeletion.Problem.expiredLink) { try await deletion.delete(link: late) }
        try await deletion.requestLink(accountID: sara.id)
        let fresh = try rig.token(in: try #require(try await rig.queued("delete-confirm").last))
        #expect(try await deletion.delete(link: fresh).id == sara.id)
        #expect(try await rig.account(sara.id) == nil)
        await #expect(throws: AccountDeletion.Problem.unknownLink) { try await deletion.delete(link: fresh) }

        #expect(try await deletion.delete(email: try EmailAddress("omar@example.com")).id == omar.id)
        #expect(try await rig.account(omar.id) == nil)
        await #expect(throws: AccountDeletion.Problem.noAccount) { try await deletion.delete(email: try EmailAddress("omar@example.com")) }
    }

    // MARK: Which rows are the account's

    /// The account's id and address, and the ids of rows that name it in a column of their own,
    /// then of rows that name those, and so on (a calendar's objects, a session's tokens).
    static func identifiers(of account: Account, in tables: [SQLStore.TableContents]) -> Set<String> {
        var marks: Set<String> = [account.id.uuidString.lowercased(), account.email.value]
        var grew = true
        while grew {
            grew = false
            for table in tables {
                guard let idColumn = table.columns.firstIndex(of: "id") else { continue }
                for row in table.rows where row.contains(where: { $0.map { marks.contains($0.lowercased()) } ?? false }) {
                    // Only ids that are ids (UUIDs): a goal's short id would match unrelated text.
                    if let id = row[idColumn]?.lowercased(), UUID(uuidString: id) != nil, marks.insert(id).inserted { grew = true }
                }
            }
        }
        return marks
    }

    /// The rows of `table` with one of `marks` anywhere in them (in JSON, a job's subject, a key).
    static func rows(of table: SQLStore.TableContents, naming marks: Set<String>) -> [[String?]] {
        table.rows.filter { row in
            row.contains { value in
                guard let value = value?.lowercased() else { return false }
                return marks.contains { value.contains($0) }
            }
        }
    }

    // MARK: An account with something in every table

    /// Sara, with something of hers in every table; Omar, who shares calendars with her both
    /// ways, lets her see his busy time and has a conflict with her shared calendar.
    static func fill(_ rig: Rig) async throws -> (sara: Account, omar: Account, omarConflict: UUID) {
        let store = rig.store
        let now = t0
        // accounts, sessions, refresh_tokens, calendars; sign_in_tokens and a queued email.
        let sara = try await rig.person("sara@example.com", name: "Sara")
        let omar = try await rig.person("omar@example.com", name: "Omar")
        try await rig.signIn.requestMagicLink(email: sara.email, client: .init(address: "192.0.2.7", userAgent: "tests"))
        let personal = try await rig.calendar(sara, "personal")
        let tasks = try await rig.calendar(sara, "tasks")

        // calendar_objects, calendar_changes; reminder and conflict jobs.
        let writes = CalendarWrites(store: store, clock: rig.clock.clock, random: .system)
        let dinner = try await writes.put(
            try CalendarObjectContent(text: AccountOwnershipServiceTests.event("dinner", "Dinner with Huda", alarm: true)), name: "dinner.ics",
            in: personal, source: .api).object
        _ = try await writes.put(try CalendarObjectContent(text: AccountOwnershipServiceTests.todo("milk", "Buy milk")), name: "milk.ics",
                                 in: tasks, source: .api)

        // prayer_settings, calendar_feeds.
        try await store.transaction { tx in
            try await tx.savePrayerSettings(PrayerSettings(latitude: 24.69, longitude: 46.72, timeZone: "Asia/Riyadh", method: .ummAlQura),
                                            accountID: sara.id, at: now)
        }
        _ = try await PrayerPreferences(store: store, clock: rig.clock.clock, random: .system, publicURL: "https://jadwal.test")
            .newFeed(accountID: sara.id, alarmMinutesBefore: nil)

        // chat_conversations, chat_messages (one still holding its words).
        let inbox = ChatInbox(store: store, clock: rig.clock.clock, random: .system, cipher: AccountOwnershipServiceTests.cipher, extractor: RuleExtractor(), publicURL: "")
        _ = try await inbox.receive([
            IncomingChatMessage(chatKey: "huda", externalID: "1", sender: "Huda", fromMe: false, sentAt: now - 120, text: "Dinner tomorrow at 8pm?"),
            IncomingChatMessage(chatKey: "huda", externalID: "2", sender: nil, fromMe: true, sentAt: now - 60, text: "Deal"),
            IncomingChatMessage(chatKey: "ali", externalID: "3", sender: "Ali", fromMe: false, sentAt: now - 30, text: "How are you?"),
        ], source: .connector, accountID: sara.id)
        let conversation = try #require(try await store.read { tx in try await tx.chatConversations(accountID: sara.id) }.first)

        // Goals, the plan, the planner's answers and learning.
        _ = try await Goals(store: store, clock: rig.clock.clock, random: .system)
            .create(GoalDraft(title: "Exercise", minutes: 45, perWeek: 3, window: .init(from: "06:00", to: "09:00")), account: sara)
        let planning = TwoWeekPlanning(store: store, clock: rig.clock.clock, random: .system)
        _ = try await planning.propose(account: sara)
        _ = try await planning.saveAnswers(PlannerAnswers(wake: "06:00"), account: sara)

        // Shares both ways, one unanswered; busy time.
        let shares = CalendarShares(store: store, clock: rig.clock.clock, random: .system)
        let toOmar = try await shares.share(calendarID: personal.id, owner: sara, with: omar.email, access: .read)
        _ = try await shares.accept(shareID: toOmar.id, account: omar)
        _ = try await shares.share(calendarID: personal.id, owner: sara, with: try EmailAddress("huda@example.com"), access: .read)
        let omarPersonal = try await rig.calendar(omar, "personal")
        let fromOmar = try await shares.share(calendarID: omarPersonal.id, owner: omar, with: sara.email, access: .readWrite)
        _ = try await shares.accept(shareID: fromOmar.id, account: sara)
        let omarTasks = try await rig.calendar(omar, "tasks")
        _ = try await shares.share(calendarID: omarTasks.id, owner: omar, with: sara.email, access: .read)
        try await shares.setBusyTimeVisibility(BusyTimeVisibility(audience: .named, allowed: [omar.email]), of: sara)
        try await shares.setBusyTimeVisibility(BusyTimeVisibility(audience: .named, allowed: [sara.email, try EmailAddress("huda@example.com")]), of: omar)

        // A calendar filled by a feed, and one mirrored from another CalDAV server.
        let feedCalendar = CalendarCollection(
            id: UUID(), accountID: sara.id, slug: "holidays", displayName: "Holidays", components: [.event], createdAt: now)
        let server = CalDAVAccount(
            id: UUID(), accountID: sara.id, url: "https://dav.example.com/", homeURL: "https://dav.example.com/home/", username: "sara",
            password: AccountOwnershipServiceTests.cipher.seal(data: Data("pw".utf8), purpose: "caldav"), remoteCalendars: [], nextSyncAt: now,
            createdAt: now)
        let mirrored = CalendarCollection(
            id: UUID(), accountID: sara.id, slug: "work", displayName: "Work", components: [.event], createdAt: now, caldavAccountID: server.id)
        let omarConflict = UUID()
        try await store.transaction { tx in
            try await tx.insertCalendar(feedCalendar)
            try await tx.insertCalendarSubscription(CalendarSubscription(
                id: UUID(), accountID: sara.id, calendarID: feedCalendar.id, url: "https://example.com/holidays.ics", nextRefreshAt: now, createdAt: now))
            try await tx.insertCalDAVAccount(server)
            try await tx.insertCalendar(mirrored)
            try await tx.insertCalendarMirror(CalendarMirror(calendarID: mirrored.id, caldavAccountID: server.id, remoteURL: "https://dav.example.com/home/work/"))
            try await tx.putMirroredObject(MirroredObject(
                calendarID: mirrored.id, name: "a.ics", remoteURL: "https://dav.example.com/home/work/a.ics", remoteETag: "\"1\"", localETag: "\"2\""))

            // Devices and keys.
            try await tx.insertAppPassword(AppPassword(id: UUID(), accountID: sara.id, name: "Thunderbird", passwordHash: "$2b$hash", createdAt: now))
            try await tx.insertSetupToken(SetupToken(
                digest: SecretToken(random: .system).digest, accountID: sara.id, deviceName: "iPhone", createdAt: now, expiresAt: now + 900))
            try await tx.insertChatConnectorToken(ChatConnectorToken(
                id: UUID(), accountID: sara.id, name: "bridge", digest: SecretToken(random: .system).digest, createdAt: now))
            _ = try await tx.savePushDevice(PushDevice(id: UUID(), accountID: sara.id, token: String(repeating: "ab", count: 32), name: "iPhone", createdAt: now))
            _ = try await tx.saveWebPushSubscription(WebPushSubscription(
                id: UUID(), accountID: sara.id, endpoint: "https://push.example.com/send/sara", p256dh: "BPk", auth: "YXV0aA", name: "Firefox",
                serverKey: "BKey", createdAt: now))
            try await tx.recordSignInFailure(
                keys: SignInThrottle.Keys(account: sara.email.value, clientAddress: "192.0.2.7").all, at: now, forgetBefore: now - 3600)
            try await tx.saveWhatsAppLink(WhatsAppLink(
                accountID: sara.id, attempt: UUID(), phone: "966500000001", state: .linked, expiresAt: now, historyDays: 7, createdAt: now, updatedAt: now))

            // A meeting she organises, with someone outside invited by email, and her scheduling Inbox.
            let invitation = Invitation(
                id: UUID(), organizerID: sara.id, uid: "meeting@jadwal.test", attendeeEmail: try EmailAddress("guest@example.org"),
                scheduleStatus: "1.1", summary: "Planning", start: now + 86400, end: now + 90000, createdAt: now, updatedAt: now)
            try await tx.insertInvitation(invitation)
            try await tx.insertInvitationToken(InvitationToken(
                digest: SecretToken(random: .system).digest, invitationID: invitation.id, createdAt: now, expiresAt: now + 86400))
            try await tx.insertSchedulingMessage(SchedulingMessage(
                id: UUID(), accountID: sara.id, name: "reply-1.ics", uid: "meeting@jadwal.test", method: .reply, sender: "mailto:guest@example.org",
                icalendar: "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", etag: "\"1\"", createdAt: now))

            // Settings of every kind.
            try await tx.saveChatSettings(ChatSettings(retentionDays: 7), accountID: sara.id, at: now)
            try await tx.saveConflictSettings(ConflictSettings(), accountID: sara.id, at: now)
            try await tx.saveNotificationSettings(NotificationSettings(), accountID: sara.id, at: now)
            try await tx.savePrayerAlertSettings(PrayerAlertSettings(prayers: [.fajr], minutesBefore: 10), accountID: sara.id, at: now)
            try await tx.setCalendarHidden(true, calendarID: tasks.id, accountID: sara.id, at: now)
            try await tx.savePlannerLearning(PlannerLearning(), accountID: sara.id, at: now)
            try await tx.insertTrackerEntry(TrackerEntry(
                id: UUID(), metric: "sleep", start: now - 8 * 3600, end: now, value: 480, unit: "min", kind: nil, note: nil, createdAt: now, updatedAt: now),
                accountID: sara.id)
            try await tx.insertChatExtractionFailure(ChatExtractionFailure(
                id: UUID(), accountID: sara.id, conversationID: conversation.id, source: .connector, reason: "test", summary: "a reading failed",
                occurredAt: now))

            // Her conflict, and Omar's with her shared calendar (and a prayer).
            let occurrence = EventConflict.Occurrence(
                calendarID: personal.id, objectName: dinner.name, uid: dinner.uid, title: "Dinner with Huda", start: now, end: now + 3600,
                recurrenceID: nil, etag: dinner.etag)
            try await tx.insertConflict(EventConflict(
                id: UUID(), accountID: sara.id, event: occurrence,
                overlaps: [.init(kind: .prayer, title: "Maghrib", start: now, end: now + 1200, overlapStart: now, overlapEnd: now + 1200, prayer: "maghrib")],
                source: .api, notify: true, detectedAt: now))
            try await tx.insertConflict(EventConflict(
                id: omarConflict, accountID: omar.id,
                event: .init(calendarID: omarPersonal.id, objectName: "gym.ics", uid: "gym", title: "Gym", start: now, end: now + 3600, recurrenceID: nil, etag: "\"g\""),
                overlaps: [
                    .init(kind: .event, title: "Dinner with Huda", start: now, end: now + 3600, overlapStart: now, overlapEnd: now + 3600,
                          calendarID: personal.id, objectName: dinner.name),
                    .init(kind: .prayer, title: "Maghrib", start: now, end: now + 1200, overlapStart: now, overlapEnd: now + 1200, prayer: "maghrib"),
                ],
                source: .api, notify: true, detectedAt: now))

            // A notification, sent by email.
            let notice = try #require(try await NotificationDispatch.post(
                NotificationDraft(kind: .reminder, reasonKey: "reminder:dinner", title: "Dinner soon", body: "In 15 minutes",
                                  links: ["calendarId": personal.id.uuidString.lowercased(), "objectName": dinner.name], urgent: true),
                account: sara, now: now, random: .system, tx: tx))
            _ = try await tx.recordDelivery(notificationID: notice.id, channel: "email", at: now)
        }

        // The first run, and links to change the address and to delete the account.
        try await rig.ownership.firstRun.finish(.completed, accountID: sara.id)
        try await rig.ownership.emailChanges.request(try EmailAddress("sara.new@example.com"), accountID: sara.id)
        try await rig.ownership.deletion.requestLink(accountID: sara.id)
        return (sara, omar, omarConflict)
    }
}
