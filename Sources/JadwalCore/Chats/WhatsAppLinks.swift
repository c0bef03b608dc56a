import Conversations
import Foundation

/// One account's WhatsApp linked device, as the person and the bridge see it. The session is
/// whatsmeow's device store (a SQLite file), sealed with the chat key: a copy of the database
/// alone cannot act as the person's device.
public struct WhatsAppLink: Sendable, Hashable {
    public enum State: String, Sendable, Hashable, Codable, CaseIterable {
        /// A code was asked for; the person has not entered it yet.
        case waiting
        case linked
        /// Pairing refused, WhatsApp refused the device, or it logged the device out (`reason`).
        case failed
        /// The code was not entered in time.
        case expired
        /// The person cancelled the code or unlinked.
        case cancelled
    }

    public var accountID: UUID
    /// Changes with every new code asked for, so the bridge starts pairing again.
    public var attempt: UUID
    /// Digits only, with the country code; empty for a link made by scanning a QR code.
    public var phone: String
    public var state: State
    /// Why it failed, in the library's words (`logged_out`, `invalid phone number`, …).
    public var reason: String?
    public var code: String?
    /// A waiting link expires then: before a code, the bridge's time to get one; after, the code's.
    public var expiresAt: Date
    /// The linked WhatsApp account (`9665…@s.whatsapp.net`).
    public var jid: String?
    /// Days of history read at link time (0 to 30).
    public var historyDays: Int
    public var session: SealedText?
    public var createdAt: Date
    public var updatedAt: Date
    /// While a QR link waits: the payload WhatsApp's phone app scans (`2@…`); it rotates.
    public var qr: String?

    /// Linked by scanning a QR code rather than typing a pairing code.
    public var usesQR: Bool { phone.isEmpty }

    public init(
        accountID: UUID, attempt: UUID, phone: String, state: State, reason: String? = nil, code: String? = nil, expiresAt: Date,
        jid: String? = nil, historyDays: Int, session: SealedText? = nil, createdAt: Date, updatedAt: Date, qr: String? = nil
    ) {
        self.qr = qr
        self.accountID = accountID
        self.attempt = attempt
        self.phone = phone
        self.state = state
        self.reason = reason
        self.code = code
        self.expiresAt = expiresAt
        self.jid = jid
        self.historyDays = historyDays
        self.session = session
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

public protocol WhatsAppLinkStore: Sendable {
    func whatsAppLink(accountID: UUID) async throws -> WhatsAppLink?
    /// Inserts or replaces the account's link.
    func saveWhatsAppLink(_ link: WhatsAppLink) async throws
    /// Links in these states, of accounts that are not disabled.
    func whatsAppLinks(in states: [WhatsAppLink.State]) async throws -> [WhatsAppLink]
    /// The keys (`MessageCipher.keyID`) that sealed the sessions held.
    func whatsAppSessionKeyIDs() async throws -> [String]
}

/// Linking a person's WhatsApp as a device of their account, with a pairing code: the rules of
/// the link's states, the sealed session, and the messages the bridge delivers for it. The API
/// adapts it for the person (`/api/v1/whatsapp/link`) and for the bridge (loopback only).
public struct WhatsAppLinks: Sendable {
    let inbox: ChatInbox
    let store: StoreAccess<any NoticeStore & AccountStore & ChatStore & WhatsAppLinkStore>
    let clock: Clock
    let random: RandomSource
    let cipher: MessageCipher

    /// How long a code stays usable once shown. WhatsApp's own limit was not measured here
    /// (no access to its servers); this errs short, and "try again" asks for a new one.
    public static let codeLifetime: TimeInterval = 180
    /// How long the bridge has to get a code from WhatsApp before the attempt is given up.
    public static let codeRequestLifetime: TimeInterval = 60
    /// How long one QR code is shown: whatsmeow gives the first for 60 s and each next one for
    /// 20 s; a new one moves the time on, and when none comes the link expires.
    public static let qrLifetime: TimeInterval = 60
    public static let defaultHistoryDays = ChatSettings.defaultWhatsAppHistoryDays
    public static let historyDaysRange = ChatSettings.whatsAppHistoryDaysLimit
    /// A QR payload longer than this is not WhatsApp's (it is about 200 characters).
    public static let qrLimit = 1024
    /// A session larger than this is not whatsmeow's store (it is about 200 KB).
    public static let sessionLimit = 16 * 1024 * 1024

    public init(inbox: ChatInbox, store: any Store, clock: Clock, random: RandomSource, cipher: MessageCipher) {
        self.inbox = inbox
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
        self.cipher = cipher
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case invalidPhone
        case invalidHistoryDays
        /// Unlink first: one account links one WhatsApp.
        case alreadyLinked
        case noLink
        /// The bridge reported for a link that is not in a state to take it.
        case notWaiting
        case notLinked
        case invalidSession
        case invalidQR
        case unknownEvent(String)

        public var description: String {
            switch self {
            case .invalidPhone:
                "the phone number must be the WhatsApp number with its country code, 8 to 15 digits (e.g. +966 50 123 4567)"
            case .invalidHistoryDays: "history days must be from \(WhatsAppLinks.historyDaysRange.lowerBound) to \(WhatsAppLinks.historyDaysRange.upperBound)"
            case .alreadyLinked: "WhatsApp is already linked to this account; unlink it first"
            case .noLink: "no WhatsApp link for this account"
            case .notWaiting: "this link is not waiting for a code"
            case .notLinked: "this account's WhatsApp is not linked"
            case .invalidSession: "the session is not base64 of at most 16 MB"
            case .invalidQR: "the QR payload must be 1 to \(WhatsAppLinks.qrLimit) printable characters"
            case .unknownEvent(let name): "unknown bridge event \"\(name)\""
            }
        }
    }

    /// The digits of a phone number typed any usual way (`+966 50-123 4567`, `00966…`).
    public static func phoneDigits(_ raw: String) -> String? {
        var text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("+") { text.removeFirst() } else if text.hasPrefix("00") { text.removeFirst(2) }
        let separators: Set<Character> = [" ", "-", "(", ")", ".", "\u{00A0}"]
        let digits = text.filter { !separators.contains($0) }
        guard (8...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.first != "0" else { return nil }
        return digits
    }

    // MARK: The person

    /// How a person links: by typing a pairing code WhatsApp gives for their number, or by
    /// scanning a QR code with the phone.
    public enum Method: Sendable, Hashable {
        case pairingCode(phone: String)
        case qr
    }

    /// Asks for a code for `phone`: a new attempt, waiting for the bridge.
    public func start(phone raw: String, historyDays: Int?, accountID: UUID) async throws -> WhatsAppLink {
        try await start(.pairingCode(phone: raw), historyDays: historyDays, accountID: accountID)
    }

    /// Asks for a pairing code or a QR code: a new attempt, waiting for the bridge. The days of
    /// history read are the chat setting's unless given.
    public func start(_ method: Method, historyDays: Int?, accountID: UUID) async throws -> WhatsAppLink {
        let phone: String
        switch method {
        case .pairingCode(let raw):
            guard let digits = Self.phoneDigits(raw) else { throw Problem.invalidPhone }
            phone = digits
        case .qr: phone = ""
        }
        if let historyDays, !Self.historyDaysRange.contains(historyDays) { throw Problem.invalidHistoryDays }
        let now = clock.now
        return try await store.transaction { tx in
            let current = try await tx.whatsAppLink(accountID: accountID)
            if let current, current.state == .linked { throw Problem.alreadyLinked }
            let days: Int
            if let historyDays { days = historyDays } else { days = try await tx.chatSettings(accountID: accountID).whatsAppHistoryDays }
            let link = WhatsAppLink(
                accountID: accountID, attempt: random.uuid(), phone: phone, state: .waiting,
                expiresAt: now.addingTimeInterval(Self.codeRequestLifetime), historyDays: days, createdAt: current?.createdAt ?? now, updatedAt: now)
            try await tx.saveWhatsAppLink(link)
            return link
        }
    }

    /// The account's link, a waiting one past its time marked expired.
    public func status(accountID: UUID) async throws -> WhatsAppLink {
        let now = clock.now
        return try await store.transaction { tx in
            guard var link = try await tx.whatsAppLink(accountID: accountID) else { throw Problem.noLink }
            if link.state == .waiting, link.expiresAt <= now {
                link.state = .expired
                link.reason = switch (link.usesQR, link.code != nil || link.qr != nil) {
                case (_, false): "no code came from WhatsApp in time (is the bridge running?)"
                case (true, true): "the QR code was not scanned in time"
                case (false, true): "the code was not entered in time"
                }
                link.code = nil
                link.qr = nil
                link.updatedAt = now
                try await tx.saveWhatsAppLink(link)
            }
            return link
        }
    }

    /// The link once the bridge has a code for `attempt` or it ended, or as it is after `timeout`.
    public func awaitCode(attempt: UUID, accountID: UUID, timeout: Swift.Duration, poll: Swift.Duration = .milliseconds(200)) async throws -> WhatsAppLink {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            let link = try await status(accountID: accountID)
            if link.attempt != attempt || link.code != nil || link.qr != nil || link.state != .waiting || ContinuousClock.now >= deadline { return link }
            try await Task.sleep(for: poll)
        }
    }

    /// Cancels a waiting code or unlinks: the session is deleted now, and the bridge logs the
    /// device out of WhatsApp when it sees the link gone.
    public func cancel(accountID: UUID) async throws -> WhatsAppLink {
        let now = clock.now
        return try await store.transaction { tx in
            guard var link = try await tx.whatsAppLink(accountID: accountID), link.state == .waiting || link.state == .linked else {
                throw Problem.noLink
            }
            link.reason = link.state == .linked ? "unlinked" : "cancelled"
            link.state = .cancelled
            link.code = nil
            link.qr = nil
            link.session = nil
            link.updatedAt = now
            try await tx.saveWhatsAppLink(link)
            return link
        }
    }

    // MARK: The bridge

    /// What the bridge serves: each waiting link (to pair) and each linked one with its session.
    public struct Work: Sendable, Hashable {
        public var link: WhatsAppLink
        /// The device store, opened; nil before the first one arrives.
        public var session: Data?
    }

    public func bridgeWork() async throws -> [Work] {
        let now = clock.now
        let links = try await store.read { tx in try await tx.whatsAppLinks(in: [.waiting, .linked]) }
        return try links.compactMap { link in
            if link.state == .waiting, link.expiresAt <= now { return nil }
            return Work(link: link, session: try link.session.map { try openSession($0, accountID: link.accountID) })
        }
    }

    /// What the bridge reports about a link.
    public enum BridgeEvent: Sendable, Hashable {
        case code(String)
        /// A QR code to show (the first, or the next as WhatsApp rotates it).
        case qr(String)
        case linked(jid: String?)
        case failed(reason: String)
        case loggedOut(reason: String)
    }

    /// Applies a report of the bridge; a logged-out device loses its session and the person is told.
    public func report(_ event: BridgeEvent, accountID: UUID) async throws {
        let now = clock.now
        try await store.transaction { tx in
            guard var link = try await tx.whatsAppLink(accountID: accountID) else { throw Problem.noLink }
            switch event {
            case .code(let code):
                guard link.state == .waiting else { throw Problem.notWaiting }
                link.code = code
                link.expiresAt = now.addingTimeInterval(Self.codeLifetime)
            case .qr(let payload):
                guard link.state == .waiting, link.usesQR else { throw Problem.notWaiting }
                guard (1...Self.qrLimit).contains(payload.count), !payload.containsControlCharacters else { throw Problem.invalidQR }
                link.qr = payload
                link.expiresAt = now.addingTimeInterval(Self.qrLifetime)
            case .linked(let jid):
                guard link.state == .waiting || link.state == .linked else { throw Problem.notWaiting }
                link.state = .linked
                link.jid = jid ?? link.jid
                link.code = nil
                link.qr = nil
                link.reason = nil
            case .failed(let reason), .loggedOut(let reason):
                guard link.state == .waiting || link.state == .linked else { return }  // already ended: nothing to tell
                let wasLinked = link.state == .linked
                link.state = .failed
                link.reason = String(reason.prefix(500))
                link.code = nil
                link.qr = nil
                link.session = nil
                if wasLinked, let account = try await tx.account(id: accountID) {
                    let text = NotificationText(account: account).whatsAppUnlinked(loggedOut: { if case .loggedOut = event { true } else { false } }())
                    let draft = NotificationDraft(
                        kind: .whatsAppUnlinked, reasonKey: "whatsapp-unlinked:\(link.attempt.uuidString.lowercased())", title: text.title,
                        body: text.body, links: ["url": "/settings/whatsapp"], urgent: false)
                    try await NotificationDispatch.post(draft, account: account, now: now, random: random, tx: tx)
                }
            }
            link.updatedAt = now
            try await tx.saveWhatsAppLink(link)
        }
    }

    /// Seals and keeps the device store the bridge hands back (after linking, and as it changes).
    public func saveSession(_ data: Data, accountID: UUID) async throws {
        guard !data.isEmpty, data.count <= Self.sessionLimit else { throw Problem.invalidSession }
        let now = clock.now
        let sealed = cipher.seal(data: data, purpose: Self.sessionPurpose(accountID))
        try await store.transaction { tx in
            guard var link = try await tx.whatsAppLink(accountID: accountID), link.state == .waiting || link.state == .linked else {
                throw Problem.notLinked
            }
            link.session = sealed
            link.updatedAt = now
            try await tx.saveWhatsAppLink(link)
        }
    }

    /// The bridge's batch for a linked account, through the connector's path.
    public func deliver(_ messages: [IncomingChatMessage], retracted: [ChatMessageRetraction] = [], accountID: UUID) async throws -> ChatInbox.Report {
        let link = try await store.read { tx in try await tx.whatsAppLink(accountID: accountID) }
        guard link?.state == .linked else { throw Problem.notLinked }
        return try await inbox.receive(messages, retracted: retracted, source: .connector, accountID: accountID)
    }

    func openSession(_ sealed: SealedText, accountID: UUID) throws -> Data {
        try cipher.open(data: sealed, purpose: Self.sessionPurpose(accountID))
    }

    /// Binds a sealed session to its account: one account's session cannot be swapped into another's row.
    static func sessionPurpose(_ accountID: UUID) -> String {
        "whatsapp session \(accountID.uuidString.lowercased())"
    }
}
