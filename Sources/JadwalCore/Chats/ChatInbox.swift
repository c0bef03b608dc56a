import Conversations
import Foundation
import ICalendar

/// Where chat messages come in, whatever delivered them (an export, the connector API, the
/// Cloud API webhook). A batch is handled in one transaction: new messages are stored encrypted
/// (a message delivered twice is stored once), each conversation that got new messages is read
/// by the extractor, and what it agreed, moved or cancelled is written to the "WhatsApp Events"
/// calendar through the CalDAV write path. Either all of it commits or none of it does. A slow
/// extractor (an LLM) is asked with no transaction open, between a rehearsal of the batch and the
/// batch itself (`ExtractionRehearsal`).
public struct ChatInbox: Sendable {
    let store: StoreAccess<any StoreTransaction>
    let clock: Clock
    let random: RandomSource
    let cipher: MessageCipher
    let extractor: any ConversationExtractor
    let writes: CalendarWrites
    /// Put before a conversation's API path in the links events carry (`https://jadwal.example`);
    /// empty for a server-relative link.
    let publicURL: String
    /// Called after a commit that posted notifications for the account (the server wakes its
    /// live streams).
    let notified: @Sendable (UUID) -> Void
    /// How long a live chat (webhook, connector) must be quiet before it is read, so a plan is
    /// not read from a half-typed exchange; each new message starts the wait again. Zero reads
    /// at once. Exports are always read at once.
    let quietPeriod: Swift.Duration

    public static let defaultQuietPeriod: Swift.Duration = .seconds(30)
    /// The job that reads a live chat once it is quiet; its subject is the conversation's id.
    public static let readJob: JobKind = "chats.read-quiet"

    /// Rows per INSERT: well under both engines' limits on bound parameters.
    static let insertChunk = 500

    public init(
        store: any Store, clock: Clock, random: RandomSource, cipher: MessageCipher, extractor: any ConversationExtractor, publicURL: String = "",
        quietPeriod: Swift.Duration = .zero, notified: @escaping @Sendable (UUID) -> Void = { _ in }
    ) {
        self.store = StoreAccess(store) { $0 }
        self.quietPeriod = quietPeriod
        self.notified = notified
        self.clock = clock
        self.random = random
        self.cipher = cipher
        self.extractor = extractor
        writes = CalendarWrites(store: store, clock: clock, random: random)
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
    }

    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case unknownAccount
        /// Messages of a chat were stored by someone else while this batch held the chat.
        case storedConcurrently

        public var description: String {
            switch self {
            case .unknownAccount: "there is no such account"
            case .storedConcurrently: "another delivery stored messages of this chat at the same time; nothing was stored, try again"
            }
        }
    }

    /// How far a long batch has come, for progress bars.
    public enum Progress: Sendable, Hashable {
        /// Messages encrypted and stored, of all in the batch.
        case storing(done: Int, total: Int)
        /// Conversations read by the extractor, of all that got new messages.
        case reading(done: Int, total: Int)
    }

    public typealias ProgressHandler = @Sendable (Progress) -> Void

    // MARK: Reports

    /// What a batch did.
    public struct Report: Sendable, Hashable, Codable {
        public struct Messages: Sendable, Hashable, Codable {
            /// Messages in the batch.
            public var read = 0
            /// Stored now.
            public var new = 0
            /// Already stored (delivered before).
            public var duplicates = 0
            /// Not stored: no words (media without caption, deleted, system notices) or a group
            /// chat while group chats are off.
            public var skipped = 0
            /// Messages taken back by their sender and deleted here (with the edits of them).
            public var retracted = 0
        }

        public struct Conversation: Sendable, Hashable, Codable {
            public var id: UUID
            public var partner: String
            public var source: ChatSource
            public var isGroup: Bool
            public var state: ConversationState
            public var proposal: ChatPlan?
            public var newMessages: Int
            /// Extraction is paused: the messages wait until it resumes.
            public var awaitingExtraction: Bool
        }

        public struct Event: Sendable, Hashable, Codable {
            public var conversationID: UUID
            public var uid: String
            public var objectName: String
            public var change: ChatEventChange
            public var title: String?
            public var start: String?
        }

        public var messages = Messages()
        /// Conversations that got new messages.
        public var conversations: [Conversation] = []
        /// Events created, moved or cancelled.
        public var events: [Event] = []
        /// Group chats left out because group chats are off.
        public var skippedGroupChats = 0

        public init() {}
    }

    // MARK: Receiving

    /// A message of the batch the conversation does not have yet: stored once the conversation
    /// has been read, sealed only if its text is still needed then.
    struct Arriving: Sendable {
        var record: ChatMessageRecord
        var text: String
    }

    /// Stores a batch for an account and acts on what the conversations now say. Messages taken
    /// back (`retracted`) are deleted after the batch's own messages are sorted out: an event
    /// that rested on one is withdrawn as a chat withdraws events, and a conversation whose held
    /// text lost a message is read again without it.
    public func receive(
        _ messages: [IncomingChatMessage], retracted: [ChatMessageRetraction] = [], source: ChatSource, accountID: UUID,
        progress: ProgressHandler? = nil
    ) async throws -> Report {
        let now = clock.now
        let report = try await transaction { tx, extractor, rehearsing in
            try await receive(
                messages, retracted: retracted, source: source, accountID: accountID, now: now, extractor: extractor, tx: tx,
                progress: rehearsing ? nil : progress)
        }
        if !report.events.isEmpty { notified(accountID) }
        return report
    }

    /// A batch's transaction, with the extractor it reads conversations with. A slow extractor
    /// is asked between a rehearsal of the batch and the batch itself (`ExtractionRehearsal`).
    private func transaction(
        _ body: @escaping @Sendable (any StoreTransaction, any ConversationExtractor, _ rehearsing: Bool) async throws -> Report
    ) async throws -> Report {
        guard extractor.answersSlowly else {
            return try await store.transaction { tx in try await body(tx, extractor, false) }
        }
        struct Rehearsed: Error {}
        let rehearsal = ExtractionRehearsal()
        for _ in 0..<3 {
            do {
                _ = try await store.transaction { tx -> Report in
                    _ = try await body(tx, rehearsal.questions, true)
                    throw Rehearsed()  // rolls the rehearsal back
                }
            } catch {
                // Whatever else stopped the rehearsal stops the batch too, where it is reported; the
                // questions noted until then are answered all the same.
            }
            guard rehearsal.hasUnanswered else { break }
            await rehearsal.answerNoted(from: extractor)
            // Except cancellation (the server stopping): the model was asked nothing more once it
            // came, and the batch stops here.
            try Task.checkCancellation()
        }
        let answers = rehearsal.answers(from: extractor)
        return try await store.transaction { tx in try await body(tx, answers, false) }
    }

    private func receive(
        _ messages: [IncomingChatMessage], retracted: [ChatMessageRetraction], source: ChatSource, accountID: UUID, now: Date,
        extractor: any ConversationExtractor, tx: any CalendarWriteStore & ChatFailureStore & ChatStore, progress: ProgressHandler?
    ) async throws -> Report {
        guard let account = try await tx.account(id: accountID) else { throw Failure.unknownAccount }
        let settings = try await tx.chatSettings(accountID: accountID)
        var report = Report()
        report.messages.read = messages.count

        // A message taken back in the batch that brought it is never stored, nor are its edits.
        var retractedInChat: [String: Set<String>] = [:]
        for retraction in retracted { retractedInChat[retraction.chatKey, default: []].insert(retraction.externalID) }
        var chatOrder: [String] = []
        var byChat: [String: [IncomingChatMessage]] = [:]
        for message in messages {
            if let gone = retractedInChat[message.chatKey], gone.contains(message.externalID) || message.replaces.map(gone.contains) == true {
                report.messages.skipped += 1
                continue
            }
            if byChat[message.chatKey] == nil { chatOrder.append(message.chatKey) }
            byChat[message.chatKey, default: []].append(message)
        }

        var touched: [(conversation: ChatConversation, arriving: [Arriving])] = []
        for key in chatOrder {
            let chat = byChat[key] ?? []
            let isGroup = chat.contains(where: \.isGroup)
            if isGroup, !settings.allowGroups {
                report.messages.skipped += chat.count
                report.skippedGroupChats += 1
                continue
            }
            let worded = chat.filter(\.carriesText)
            report.messages.skipped += chat.count - worded.count
            guard let newest = worded.map(\.sentAt).max() else { continue }

            let partner = Self.partnerName(of: chat, key: key)
            var conversation = try await tx.lockChatConversation(ChatConversation(
                id: random.uuid(), accountID: accountID, source: source, chatKey: key, partnerName: partner, isGroup: isGroup,
                lastActivityAt: newest, createdAt: now, updatedAt: now))

            var seen: Set<String> = []
            let edited = try await placingEdits(worded, in: conversation, tx: tx)
            let unique = edited.filter { seen.insert($0.message.externalID).inserted }
            // Known before sealing anything: a re-delivered export costs a lookup, not a
            // cipher and an INSERT per message. The conversation's lock keeps it true.
            let known = try await storedIDs(of: unique.filter { $0.place == nil }.map(\.message), in: conversation, tx: tx)
            var arriving: [Arriving] = []
            arriving.reserveCapacity(unique.count - known.count)
            for (index, item) in unique.enumerated() where !known.contains(item.message.externalID) || item.place != nil {
                let message = item.message
                arriving.append(Arriving(
                    record: ChatMessageRecord(
                        conversationID: conversation.id, externalID: message.externalID,
                        position: item.place?.position ?? conversation.messageCount + Int64(index),
                        sender: message.sender, fromMe: message.fromMe, kind: message.kind, sentAt: item.place?.sentAt ?? message.sentAt,
                        sealedText: nil, createdAt: now),
                    text: message.text))
            }
            report.messages.new += arriving.count
            report.messages.duplicates += worded.count - arriving.count
            guard let newestStored = arriving.lazy.map(\.record.sentAt).max() else { continue }

            conversation.messageCount += Int64(unique.count)
            // A chat first seen through the owner's own messages gets its partner's name when they write.
            if conversation.partnerName == key, partner != key { conversation.partnerName = partner }
            conversation.lastActivityAt = max(conversation.lastActivityAt, newestStored)
            if isGroup { conversation.isGroup = true }
            touched.append((conversation, arriving))
        }

        // Messages taken back: deleted, the events that rested on them withdrawn, and the
        // conversation read again when it held their text.
        var rereads: [ChatConversation] = []
        for (key, ids) in retractedInChat {
            if let index = touched.firstIndex(where: { $0.conversation.chatKey == key }) {
                // Read below with its new messages.
                _ = try await retract(ids, in: &touched[index].conversation, account: account, settings: settings, now: now, tx: tx, report: &report)
            } else if var conversation = try await tx.lockExistingChatConversation(accountID: accountID, source: source, chatKey: key),
                      try await retract(ids, in: &conversation, account: account, settings: settings, now: now, tx: tx, report: &report) {
                rereads.append(conversation)
            }
        }
        for conversation in rereads { touched.append((conversation, [])) }

        // Each conversation is read before its new messages are stored, so text the reading
        // settles is never sealed and written only to be deleted again. Skipped and duplicate
        // messages need no storing.
        var handled = messages.count - touched.reduce(0) { $0 + $1.arriving.count }
        progress?(.storing(done: handled, total: messages.count))
        for (index, item) in touched.enumerated() {
            var conversation = item.conversation
            let before = handled
            let stored: (Int) -> Void = { count in progress?(.storing(done: before + count, total: messages.count)) }
            if settings.extractionPaused {
                try await insert(item.arriving, sealed: true, tx: tx, progress: stored)
                conversation.awaitingExtraction = true
                conversation.updatedAt = now
                try await tx.updateChatConversation(conversation)
            } else if source.isLive, quietPeriod > .zero {
                try await insert(item.arriving, sealed: true, tx: tx, progress: stored)
                try await waitForQuiet(&conversation, now: now, tx: tx)
            } else {
                try await read(
                    &conversation, arriving: item.arriving, account: account, settings: settings, now: now, extractor: extractor, tx: tx,
                    report: &report, progress: stored)
            }
            handled += item.arriving.count
            report.conversations.append(Self.summary(conversation, newMessages: item.arriving.count))
            progress?(.reading(done: index + 1, total: touched.count))
        }
        return report
    }

    /// Reads the conversations that got messages while extraction was paused (after it resumes).
    public func readAwaitingConversations(accountID: UUID) async throws -> Report {
        let now = clock.now
        let report = try await transaction { tx, extractor, _ in
            guard let account = try await tx.account(id: accountID) else { throw Failure.unknownAccount }
            let settings = try await tx.chatSettings(accountID: accountID)
            var report = Report()
            guard !settings.extractionPaused else { return report }
            for var conversation in try await tx.chatConversationsAwaitingExtraction(accountID: accountID) {
                try await read(&conversation, account: account, settings: settings, now: now, extractor: extractor, tx: tx, report: &report)
                report.conversations.append(Self.summary(conversation, newMessages: 0))
            }
            return report
        }
        if !report.events.isEmpty { notified(accountID) }
        return report
    }

    /// Holds a live chat's messages until it has been quiet for `quietPeriod`: the wait starts
    /// again with each delivery, and one queued job reads it when the wait is over.
    private func waitForQuiet(_ conversation: inout ChatConversation, now: Date, tx: any ChatStore & JobStore) async throws {
        let readAfter = now + quietPeriod.timeInterval
        conversation.awaitingExtraction = true
        conversation.readAfter = readAfter
        conversation.updatedAt = now
        try await tx.updateChatConversation(conversation)
        let subject = conversation.id.uuidString.lowercased()
        try await tx.cancelQueuedJobs(kind: Self.readJob, subject: subject)
        let payload = QuietRead(accountID: conversation.accountID, conversationID: conversation.id)
        try await tx.enqueue(.new(Self.readJob, payload: try payload.json(), runAt: readAfter, now: now, id: random.uuid(), subject: subject))
    }

    /// What the quiet-chat job reads.
    public struct QuietRead: Sendable, Hashable, Codable {
        public var accountID: UUID
        public var conversationID: UUID

        public init(accountID: UUID, conversationID: UUID) {
            self.accountID = accountID
            self.conversationID = conversationID
        }

        func json() throws -> String { String(decoding: try JSONEncoder().encode(self), as: UTF8.self) }

        public init(json: String) throws {
            self = try JSONDecoder().decode(Self.self, from: Data(json.utf8))
        }
    }

    /// Reads a live chat whose quiet period is over (the `readJob`). Nothing happens when a
    /// newer message moved the wait (its own job comes later), when extraction is paused (it is
    /// read on resuming), or when the chat was forgotten meanwhile. A reading that fails is
    /// listed for the operator before the job is retried.
    public func readQuiet(_ request: QuietRead) async throws -> Report {
        let now = clock.now
        do {
            let report = try await transaction { tx, extractor, _ in
                var report = Report()
                guard let account = try await tx.account(id: request.accountID) else { return report }
                let settings = try await tx.chatSettings(accountID: account.id)
                guard !settings.extractionPaused,
                      var conversation = try await tx.chatConversationsAwaitingExtraction(accountID: account.id).first(where: { $0.id == request.conversationID }),
                      conversation.readAfter.map({ $0 <= now }) ?? true
                else { return report }
                try await read(&conversation, account: account, settings: settings, now: now, extractor: extractor, tx: tx, report: &report)
                report.conversations.append(Self.summary(conversation, newMessages: 0))
                return report
            }
            if !report.events.isEmpty { notified(request.accountID) }
            return report
        } catch {
            if !(error is CancellationError) { try? await recordReadFailure(request, error: error, at: now) }
            throw error
        }
    }

    private func recordReadFailure(_ request: QuietRead, error: any Error, at now: Date) async throws {
        try await store.transaction { tx in
            guard let conversation = try await tx.chatConversation(id: request.conversationID, accountID: request.accountID) else { return }
            // The error's words can carry no message text: they come from storage and the cipher.
            let problem = ExtractionProblem(code: "read_failed", summary: "reading the conversation failed: \(error)")
            try await tx.insertChatExtractionFailure(ChatExtractionFailure(problem, conversation: conversation, id: random.uuid(), at: now))
        }
    }

    /// Deletes the text of messages older than their account's retention period; returns how many.
    public func forgetExpiredText() async throws -> Int {
        let now = clock.now
        return try await store.transaction { tx in
            // Failures age out with the messages they were about.
            try await tx.forgetExpiredChatExtractionFailures(now: now)
            return try await tx.forgetExpiredChatMessageText(now: now)
        }
    }

    // MARK: Reading a conversation

    /// Runs the extractor over the text still held and the arriving messages, acts on the
    /// outcome, forgets the text once the conversation is resolved, and stores the arriving
    /// messages (their text sealed only if it is still needed).
    private func read(
        _ conversation: inout ChatConversation, arriving: [Arriving] = [], account: Account, settings: ChatSettings, now: Date,
        extractor: any ConversationExtractor, tx: any CalendarWriteStore & ChatFailureStore & ChatStore, report: inout Report, progress: (Int) -> Void = { _ in }
    ) async throws {
        let zone = TimeZone(identifier: account.timeZone) ?? .gmt
        let held = try await tx.heldChatMessages(conversationID: conversation.id)
        let lines = Self.inSendingOrder(held: held, arriving: arriving)
        // The extractor tells the two sides apart by name: the owner's messages carry one name.
        let me = lines.first(where: \.record.fromMe)?.record.sender ?? settings.meName ?? account.displayName
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var messages: [ChatMessage] = []
        var messageIDs: [String] = []
        messages.reserveCapacity(lines.count)
        for line in lines {
            let record = line.record
            guard let local = Self.localTime(record.sentAt, calendar: calendar) else { continue }
            let text: String
            if let arrived = line.text {
                text = arrived
            } else if let sealed = record.sealedText {
                text = try cipher.open(sealed, conversationID: conversation.id, messageID: record.externalID)
            } else {
                continue
            }
            messages.append(ChatMessage(
                sender: record.fromMe ? me : (record.sender ?? conversation.partnerName), localTime: local, timestamp: record.sentAt,
                kind: record.kind, text: text))
            messageIDs.append(record.externalID)
        }

        let prayer = try await tx.prayerSettings(accountID: account.id)
        let context = ExtractionContext(timeZone: zone, now: now, prayerTimes: AccountPrayerTimetable(settings: prayer, conversationZone: zone))
        let reconciler = ChatPlanReconciler(now: now, zone: ZoneRules(ianaIdentifier: account.timeZone) ?? .utc)
        // The events that still stand are retold first: the words that agreed on them are gone.
        let standing = reconciler.standing(conversation.events)
        var retold: ConversationOutcome?
        var opensNewPlan = false
        var replay: [ChatMessage] = []
        let outcome: ConversationOutcome
        if !standing.isEmpty, let first = messages.first {
            replay = ChatPlanReplay(partner: conversation.partnerName, me: me).messages(for: standing, before: first.timestamp, zone: zone)
            retold = await extractor.outcome(of: replay, context: context)
            // Beside a standing event the outcome stays agreed; a new proposal shows in the new messages alone.
            opensNewPlan = await extractor.outcome(of: messages, context: context).state == .proposed
            outcome = await extractor.outcome(of: replay + messages, context: context)
        } else {
            outcome = await extractor.outcome(of: messages, context: context)
        }
        if let problem = outcome.problem {
            try await tx.insertChatExtractionFailure(ChatExtractionFailure(problem, conversation: conversation, id: random.uuid(), at: now))
        }
        let decision = reconciler.decide(
            previousState: conversation.state, previousProposal: conversation.proposal?.event, links: conversation.events, retold: retold,
            outcome: outcome)

        let plansBefore = Dictionary(conversation.events.map { ($0.uid, $0.plan.event) }, uniquingKeysWith: { first, _ in first })
        try await act(on: decision.actions, in: &conversation, account: account, settings: settings, now: now, tx: tx, report: &report)
        if conversation.source.isLive {
            try await noteDependencies(
                of: decision.actions, plansBefore: plansBefore, in: &conversation, replay: replay, messages: messages, ids: messageIDs,
                context: context, extractor: extractor)
        }

        let wasResolved = conversation.state.isResolved
        conversation.state = decision.state
        conversation.proposal = decision.proposal.map(ChatPlan.init)
        // Settled: the words are no longer needed, only what was agreed; unless they open a new
        // plan beside the standing one, which its answer will need.
        let forgets = decision.state.isResolved && !opensNewPlan
        if decision.state.isResolved {
            if !wasResolved || !decision.actions.isEmpty || conversation.resolvedAt == nil { conversation.resolvedAt = now }
            if forgets, !held.isEmpty { _ = try await tx.forgetChatMessageText(conversationID: conversation.id) }
        } else {
            conversation.resolvedAt = nil
        }
        try await insert(arriving, sealed: !forgets, tx: tx, progress: progress)
        conversation.awaitingExtraction = false
        conversation.readAfter = nil
        conversation.updatedAt = now
        try await tx.updateChatConversation(conversation)
    }

    /// How many of a reading's last messages are tried without, to find what an agreement
    /// rests on: a live chat is read after a quiet spell, so the exchange that agreed is short.
    static let dependencyWindow = 20

    /// Notes, on each event this reading agreed or moved, the messages it rests on: read again
    /// without each of the last messages, the event is no longer agreed. Live chats only, whose
    /// messages can be taken back while their text may already be forgotten.
    private func noteDependencies(
        of actions: [ChatPlanReconciler.Action], plansBefore: [String: ExtractedEvent], in conversation: inout ChatConversation,
        replay: [ChatMessage], messages: [ChatMessage], ids: [String], context: ExtractionContext, extractor: any ConversationExtractor
    ) async throws {
        let targets: [(uid: String, plan: ExtractedEvent, previous: ExtractedEvent?)] = actions.compactMap { action in
            switch action {
            case .create(let plan): (Self.eventUID(conversation, plan), plan, nil)
            case .move(let uid, let plan): (uid, plan, plansBefore[uid])
            case .cancel: nil
            }
        }
        guard !targets.isEmpty else { return }
        var found: [String: [ChatEventLink.Dependency]] = [:]
        for index in messages.indices.suffix(Self.dependencyWindow) {
            try Task.checkCancellation()
            var without = messages
            without.remove(at: index)
            let outcome = await extractor.outcome(of: replay + without, context: context)
            let agreed = outcome.agreedEvents
            for target in targets where !agreed.contains(where: { ChatPlanReconciler.sameSlot($0, target.plan) }) {
                let back = target.previous.flatMap { previous in agreed.contains { ChatPlanReconciler.sameSlot($0, previous) } ? previous : nil }
                found[target.uid, default: []].append(ChatEventLink.Dependency(
                    messageID: ids[index], without: back.map(ChatPlan.init), state: outcome.state, proposal: outcome.event.map(ChatPlan.init)))
            }
        }
        for target in targets {
            guard let index = conversation.events.firstIndex(where: { $0.uid == target.uid }) else { continue }
            conversation.events[index].dependsOn = found[target.uid] ?? []
        }
    }

    /// Deletes messages taken back, with their edits; withdraws the events that rested on one
    /// (moved back to where they were before it, else cancelled, as a chat cancels them) and
    /// sets the conversation to what it read without it. True when text still held was deleted:
    /// the conversation is then read again.
    private func retract(
        _ ids: Set<String>, in conversation: inout ChatConversation, account: Account, settings: ChatSettings, now: Date,
        tx: any CalendarWriteStore & ChatFailureStore & ChatStore, report: inout Report
    ) async throws -> Bool {
        var removed: [ChatMessageRecord] = []
        for id in ids.sorted() {
            removed += try await tx.deleteChatMessages(conversationID: conversation.id, externalID: id, editPrefix: ChatMessageRetraction.editPrefix(of: id))
        }
        guard !removed.isEmpty else { return false }
        report.messages.retracted += removed.count
        let gone = Set(removed.map(\.externalID))
        let reconciler = ChatPlanReconciler(now: now, zone: ZoneRules(ianaIdentifier: account.timeZone) ?? .utc)
        var actions: [ChatPlanReconciler.Action] = []
        var without: ChatEventLink.Dependency?
        for link in reconciler.standing(conversation.events) {
            guard let dependency = link.dependsOn?.first(where: { gone.contains($0.messageID) }) else { continue }
            actions.append(dependency.without.map { .move(uid: link.uid, to: $0.event) } ?? .cancel(uid: link.uid))
            without = dependency
        }
        try await act(on: actions, in: &conversation, account: account, settings: settings, now: now, tx: tx, report: &report)
        let withdrawn = Set(actions.compactMap { action -> String? in
            switch action {
            case .move(let uid, _), .cancel(let uid): uid
            case .create: nil
            }
        })
        for index in conversation.events.indices where withdrawn.contains(conversation.events[index].uid) {
            conversation.events[index].dependsOn = []
        }
        if let without, reconciler.standing(conversation.events).isEmpty {
            conversation.state = without.state
            conversation.proposal = without.proposal
            if !without.state.isResolved { conversation.resolvedAt = nil }
        }
        conversation.updatedAt = now
        try await tx.updateChatConversation(conversation)
        return removed.contains { $0.sealedText != nil }
    }

    /// A message of the batch, and where it goes when it is an edit taking its original's place.
    struct Placed {
        var message: IncomingChatMessage
        var place: (position: Int64, sentAt: Date)?
    }

    /// The batch's messages of one chat with its edits sorted out. An edit whose original's text
    /// is still held (or that came in the same batch) takes the original's id, time and place,
    /// so the chat reads as if it had been written that way; an edit of a settled message is
    /// kept beside it as said again (`~edit~`), and read with the events that stand.
    private func placingEdits(_ worded: [IncomingChatMessage], in conversation: ChatConversation, tx: any ChatStore) async throws -> [Placed] {
        var out: [Placed] = []
        for var message in worded {
            guard let original = message.replaces else {
                out.append(Placed(message: message, place: nil))
                continue
            }
            message.replaces = nil
            let stored = conversation.messageCount > 0 ? try await tx.chatMessage(conversationID: conversation.id, externalID: original) : nil
            let earlier = out.firstIndex { $0.message.externalID == original }
            var place: (position: Int64, sentAt: Date)?
            if let stored, stored.sealedText != nil {
                _ = try await tx.deleteChatMessages(conversationID: conversation.id, externalID: original, editPrefix: ChatMessageRetraction.editPrefix(of: original))
                place = (stored.position, stored.sentAt)
            } else if stored == nil, let earlier {
                message.sentAt = out[earlier].message.sentAt
            } else {
                message.externalID = ChatMessageRetraction.editPrefix(of: original) + message.externalID
                out.append(Placed(message: message, place: nil))
                continue
            }
            if let earlier { out.remove(at: earlier) }
            message.externalID = original
            if let place { message.sentAt = place.sentAt }
            out.append(Placed(message: message, place: place))
        }
        return out
    }

    /// The messages of a conversation, stored and arriving, in the order the extractor reads
    /// them: by time sent, then by position (the order `heldChatMessages` gives). Arriving
    /// messages carry their text; stored ones their sealed text.
    static func inSendingOrder(held: [ChatMessageRecord], arriving: [Arriving]) -> [(record: ChatMessageRecord, text: String?)] {
        var lines: [(record: ChatMessageRecord, text: String?)] = held.map { ($0, nil) }
        guard !arriving.isEmpty else { return lines }
        lines.reserveCapacity(held.count + arriving.count)
        for message in arriving {
            var record = message.record
            // As the database gives it back: to the millisecond.
            record.sentAt = Date(unixMilliseconds: record.sentAt.unixMilliseconds)
            lines.append((record, message.text))
        }
        lines.sort { a, b in
            let (first, second) = (a.record.sentAt.unixMilliseconds, b.record.sentAt.unixMilliseconds)
            return first != second ? first < second : a.record.position < b.record.position
        }
        return lines
    }

    /// Which of these messages the conversation already has.
    private func storedIDs(of messages: [IncomingChatMessage], in conversation: ChatConversation, tx: any ChatStore) async throws -> Set<String> {
        // A conversation that never stored a message has none to look up.
        guard conversation.messageCount > 0 else { return [] }
        var known: Set<String> = []
        var start = 0
        while start < messages.count {
            let end = min(start + Self.insertChunk, messages.count)
            known.formUnion(try await tx.storedChatMessageIDs(conversationID: conversation.id, among: messages[start..<end].map(\.externalID)))
            start = end
        }
        return known
    }

    /// Stores arriving messages, with their text sealed or, when the conversation no longer
    /// needs it, without.
    private func insert(_ arriving: [Arriving], sealed: Bool, tx: any ChatStore, progress: (Int) -> Void) async throws {
        var start = 0
        while start < arriving.count {
            let end = min(start + Self.insertChunk, arriving.count)
            let records = arriving[start..<end].map { message in
                var record = message.record
                if sealed {
                    record.sealedText = cipher.seal(message.text, conversationID: record.conversationID, messageID: record.externalID)
                }
                return record
            }
            let inserted = try await tx.insertChatMessages(records)
            // The conversation's lock keeps anyone else from storing its messages meanwhile.
            guard inserted.count == records.count else { throw Failure.storedConcurrently }
            start = end
            progress(end)
        }
    }

    /// Writes the decided changes to the calendar, in the batch's transaction.
    private func act(
        on actions: [ChatPlanReconciler.Action], in conversation: inout ChatConversation, account: Account, settings: ChatSettings, now: Date,
        tx: any CalendarWriteStore & ChatFailureStore, report: inout Report
    ) async throws {
        guard !actions.isEmpty else { return }
        let document = ChatEventDocument(timeZone: account.timeZone, language: account.language, now: now, eventMinutes: settings.eventMinutes)
        let link = publicURL + conversation.apiPath
        for action in actions {
            switch action {
            case .create(let plan):
                let uid = Self.eventUID(conversation, plan)
                let name = ObjectIdentity.name(forUID: uid)
                guard let calendar = try await chatCalendar(for: account, now: now, tx: tx),
                      let text = document.created(uid: uid, plan: plan, partner: conversation.partnerName, conversationID: conversation.id, link: link),
                      try await write(text, name: name, in: calendar, tx: tx)
                else {
                    let problem = ExtractionProblem(
                        code: "unplaceable_plan", summary: "an agreed plan could not be put on the calendar (no valid start, or the calendar refused it)")
                    try await tx.insertChatExtractionFailure(ChatExtractionFailure(problem, conversation: conversation, id: random.uuid(), at: now))
                    continue
                }
                var created = ChatEventLink(uid: uid, objectName: name, calendarID: calendar.id, plan: ChatPlan(plan), createdAt: now, updatedAt: now)
                if let index = conversation.events.firstIndex(where: { $0.uid == uid }) {
                    // Agreed again after it was cancelled: the same event, confirmed again.
                    created = conversation.events[index]
                    created.plan = ChatPlan(plan)
                    created.status = .active
                    created.calendarID = calendar.id
                    created.objectName = name
                    created.updatedAt = now
                    conversation.events[index] = created
                } else {
                    conversation.events.append(created)
                }
                report.events.append(Self.eventReport(conversation, created, change: .created))
                try await announce(.created, created, in: conversation, account: account, now: now, tx: tx)

            case .move(let uid, let plan):
                guard let index = conversation.events.firstIndex(where: { $0.uid == uid }) else { continue }
                var moved = conversation.events[index]
                guard let (calendar, stored) = try await storedEvent(moved, tx: tx) else {
                    conversation.events[index].status = .removed
                    continue
                }
                if let text = document.moved(stored.icalendar, from: moved.plan, to: plan, partner: conversation.partnerName), text != stored.icalendar {
                    guard try await write(text, name: moved.objectName, in: calendar, tx: tx) else { continue }
                }
                moved.plan = ChatPlan(plan)
                moved.updatedAt = now
                conversation.events[index] = moved
                report.events.append(Self.eventReport(conversation, moved, change: .moved))
                try await announce(.moved, moved, in: conversation, account: account, now: now, tx: tx)

            case .cancel(let uid):
                guard let index = conversation.events.firstIndex(where: { $0.uid == uid }) else { continue }
                var cancelled = conversation.events[index]
                guard let (calendar, stored) = try await storedEvent(cancelled, tx: tx) else {
                    conversation.events[index].status = .removed
                    continue
                }
                if let text = document.cancelled(stored.icalendar), text != stored.icalendar {
                    guard try await write(text, name: cancelled.objectName, in: calendar, tx: tx) else { continue }
                }
                cancelled.status = .cancelled
                cancelled.updatedAt = now
                conversation.events[index] = cancelled
                report.events.append(Self.eventReport(conversation, cancelled, change: .cancelled))
                try await announce(.cancelled, cancelled, in: conversation, account: account, now: now, tx: tx)
            }
        }
    }

    /// Tells the person what Jadwal did with an event from the chat, in the same transaction as
    /// the change (the notice and the event commit together).
    private func announce(
        _ change: ChatEventChange, _ link: ChatEventLink, in conversation: ChatConversation, account: Account, now: Date, tx: any NoticeStore
    ) async throws {
        guard let startText = link.plan.start, let start = Self.instant(startText, zone: account.timeZone) else { return }
        let title = link.plan.title ?? (account.language == .arabic ? "موعد" : "Event")
        let text = NotificationText(account: account).chatEvent(change, title: title, start: start, allDay: link.plan.allDay, partner: conversation.partnerName)
        let draft = NotificationDraft(
            kind: .eventAdded, reasonKey: "chat:\(link.uid):\(change.rawValue):\(now.timeIntervalSince1970)", title: text.title, body: text.body,
            links: [
                "conversationId": conversation.id.uuidString.lowercased(), "calendarId": link.calendarID.uuidString.lowercased(),
                "objectName": link.objectName,
            ],
            urgent: false)
        try await NotificationDispatch.post(draft, account: account, now: now, random: random, tx: tx)
    }

    /// A plan's `2026-11-26T20:00` (or `2026-11-26`) in the person's zone.
    static func instant(_ text: String, zone: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone) ?? .gmt
        formatter.dateFormat = text.count == 10 ? "yyyy-MM-dd" : "yyyy-MM-dd'T'HH:mm"
        return formatter.date(from: text)
    }

    /// Writes an event through the CalDAV write path. False when the calendar refuses it (the
    /// person moved another object with its UID there): the rest of the batch goes on without it.
    private func write(_ text: String, name: String, in calendar: CalendarCollection, tx: any CalendarWriteStore) async throws -> Bool {
        guard let content = try? CalendarObjectContent(text: text) else { return false }
        do {
            _ = try await writes.put(content, name: name, in: calendar, source: .chat, transaction: tx)
            return true
        } catch is CalendarWrites.Refusal {
            return false
        }
    }

    /// The account's "WhatsApp Events" calendar, made again if the person deleted it.
    private func chatCalendar(for account: Account, now: Date, tx: any CalendarStore) async throws -> CalendarCollection? {
        if let calendar = try await tx.calendar(accountID: account.id, slug: DefaultCalendars.chatEventsSlug) { return calendar }
        guard let calendar = DefaultCalendars.make(for: account, now: now, random: random).first(where: { $0.slug == DefaultCalendars.chatEventsSlug }) else {
            return nil
        }
        try await tx.insertCalendar(calendar)
        return calendar
    }

    /// The calendar and stored object of an event Jadwal created; nil when someone deleted it.
    private func storedEvent(_ link: ChatEventLink, tx: any CalendarStore) async throws -> (CalendarCollection, CalendarObject)? {
        guard let calendar = try await tx.calendar(id: link.calendarID),
              let object = try await tx.calendarObject(calendarID: calendar.id, name: link.objectName)
        else { return nil }
        return (calendar, object)
    }

    // MARK: Helpers

    /// Stable for a chat and a plan: the same agreement handled twice (a retry, a re-import after
    /// the chat was forgotten) names the same event instead of adding a second one.
    static func eventUID(_ conversation: ChatConversation, _ plan: ExtractedEvent) -> String {
        let key = [
            conversation.accountID.uuidString.lowercased(), conversation.source.rawValue, conversation.chatKey,
            ChatPlan(plan).start ?? "", plan.allDay ? "all-day" : "timed",
        ].joined(separator: "\u{1F}")
        return "chat-" + key.sha256Hex.prefix(32) + "@jadwal"
    }

    /// The name the source gave the chat, else the first other sender, else its key.
    static func partnerName(of chat: [IncomingChatMessage], key: String) -> String {
        if let name = chat.lazy.compactMap(\.chatName).first(where: { !$0.isEmpty }) { return name }
        if let sender = chat.lazy.filter({ !$0.fromMe }).compactMap(\.sender).first(where: { !$0.isEmpty }) { return sender }
        return key
    }

    static func localTime(_ date: Date, calendar: Foundation.Calendar) -> Conversations.LocalDateTime? {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        return Conversations.LocalDateTime(
            year: year, month: month, day: day, hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0)
    }

    static func summary(_ conversation: ChatConversation, newMessages: Int) -> Report.Conversation {
        Report.Conversation(
            id: conversation.id, partner: conversation.partnerName, source: conversation.source, isGroup: conversation.isGroup,
            state: conversation.state, proposal: conversation.proposal, newMessages: newMessages,
            awaitingExtraction: conversation.awaitingExtraction)
    }

    static func eventReport(_ conversation: ChatConversation, _ link: ChatEventLink, change: ChatEventChange) -> Report.Event {
        Report.Event(
            conversationID: conversation.id, uid: link.uid, objectName: link.objectName, change: change, title: link.plan.title,
            start: link.plan.start)
    }
}
