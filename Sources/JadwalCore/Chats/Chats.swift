import Conversations
import Foundation

/// A person's chats as Jadwal follows them: the settings, the conversations, the tokens their
/// bridges deliver with, and where each delivery goes. The JSON API, the web app, the webhook and
/// the CLI only adapt it; messages themselves go through `ChatInbox`.
public struct Chats: Sendable {
    public let inbox: ChatInbox
    let store: StoreAccess<any ChatConnectorTokenStore & ChatStore>
    let clock: Clock
    let random: RandomSource

    public init(inbox: ChatInbox, store: any Store, clock: Clock, random: RandomSource) {
        self.inbox = inbox
        self.store = StoreAccess(store) { $0 }
        self.clock = clock
        self.random = random
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case invalidSetting(ChatSettingsChange.Problem)
        /// Another account already receives this WhatsApp Business number's messages.
        case phoneNumberTaken
        case noConversation
        case noConnectorToken
        case invalidTokenName
        /// Not a connector token this server issued, or revoked.
        case invalidConnectorToken
        case accountDisabled

        public var description: String {
            switch self {
            case .invalidSetting(let problem): problem.description
            case .phoneNumberTaken:
                "another account already receives this business number's WhatsApp messages; one number belongs to one account"
            case .noConversation: "no conversation with that ID"
            case .noConnectorToken: "no connector token with that ID"
            case .invalidTokenName:
                "a connector token's name must name the bridge in 1 to \(ChatConnectorToken.nameLimit) characters, e.g. \"whatsapp-web.js on my laptop\""
            case .invalidConnectorToken: "this connector token is not valid (revoked, or never issued)"
            case .accountDisabled: "this account is disabled"
            }
        }
    }

    // MARK: Settings

    public func settings(accountID: UUID) async throws -> ChatSettings {
        try await store.read { tx in try await tx.chatSettings(accountID: accountID) }
    }

    /// Saves a change to the chat settings: one account per business number; resuming
    /// extraction reads what arrived while it was paused.
    public func updateSettings(_ change: ChatSettingsChange, accountID: UUID) async throws -> ChatSettings {
        let now = clock.now
        let (before, after) = try await store.transaction { tx in
            let current = try await tx.chatSettings(accountID: accountID)
            let updated: ChatSettings
            do throws(ChatSettingsChange.Problem) {
                updated = try change.applied(to: current)
            } catch {
                throw Problem.invalidSetting(error)
            }
            if let number = updated.cloudAPIPhoneNumberID, number != current.cloudAPIPhoneNumberID,
               let holder = try await tx.chatAccountID(cloudAPIPhoneNumberID: number), holder != accountID {
                throw Problem.phoneNumberTaken
            }
            try await tx.saveChatSettings(updated, accountID: accountID, at: now)
            return (current, updated)
        }
        if before.extractionPaused, !after.extractionPaused {
            _ = try await inbox.readAwaitingConversations(accountID: accountID)
        }
        return after
    }

    // MARK: Conversations

    /// The account's conversations, most recently active first.
    public func conversations(accountID: UUID) async throws -> [ChatConversation] {
        try await store.read { tx in try await tx.chatConversations(accountID: accountID) }
    }

    /// One conversation with how many messages it stored and how many still hold their text.
    public func conversation(id: UUID, accountID: UUID) async throws -> (ChatConversation, stored: Int, holdingText: Int) {
        let found = try await store.read { tx -> (ChatConversation, (stored: Int, holdingText: Int))? in
            guard let conversation = try await tx.chatConversation(id: id, accountID: accountID) else { return nil }
            return (conversation, try await tx.chatMessageCounts(conversationID: id))
        }
        guard let (conversation, counts) = found else { throw Problem.noConversation }
        return (conversation, counts.stored, counts.holdingText)
    }

    /// Forgets a conversation and its messages; the events it made stay on the calendar.
    public func forget(id: UUID, accountID: UUID) async throws {
        guard try await store.transaction({ tx in try await tx.deleteChatConversation(id: id, accountID: accountID) }) else {
            throw Problem.noConversation
        }
    }

    /// Reads an export (its bytes as uploaded) into the account's chats.
    public func importExport(_ data: Data, accountID: UUID, me: String?) async throws -> (ChatExportImport, ChatInbox.Report) {
        try await inbox.importWhatsAppExport(data, accountID: accountID, me: me)
    }

    // MARK: Connector tokens

    public func connectorTokens(accountID: UUID) async throws -> [ChatConnectorToken] {
        try await store.read { tx in try await tx.chatConnectorTokens(accountID: accountID) }
    }

    /// A new token and its secret, which is never stored or shown again.
    public func createConnectorToken(named raw: String, accountID: UUID) async throws -> (ChatConnectorToken, secret: String) {
        guard let name = ChatConnectorToken.validName(raw) else { throw Problem.invalidTokenName }
        let secret = ChatConnectorToken.newSecret(random: random)
        let token = ChatConnectorToken(id: random.uuid(), accountID: accountID, name: name, digest: TokenDigest(of: secret), createdAt: clock.now)
        try await store.transaction { tx in try await tx.insertChatConnectorToken(token) }
        return (token, secret)
    }

    public func revokeConnectorToken(id: UUID, accountID: UUID) async throws {
        let now = clock.now
        guard try await store.transaction({ tx in try await tx.revokeChatConnectorToken(id: id, accountID: accountID, at: now) }) else {
            throw Problem.noConnectorToken
        }
    }

    /// The token a bridge presented, with its account: the only thing a token can do is deliver.
    public func connector(presenting secret: String) async throws -> (ChatConnectorToken, Account) {
        guard secret.hasPrefix(ChatConnectorToken.prefix),
              let (token, account) = try await store.read({ tx in try await tx.chatConnectorToken(digest: TokenDigest(of: secret)) })
        else { throw Problem.invalidConnectorToken }
        guard !account.isDisabled else { throw Problem.accountDisabled }
        return (token, account)
    }

    /// A bridge's batch for its token's account; the token is marked used.
    public func deliver(
        _ messages: [IncomingChatMessage], retracted: [ChatMessageRetraction] = [], token: ChatConnectorToken, account: Account
    ) async throws -> ChatInbox.Report {
        let report = try await inbox.receive(messages, retracted: retracted, source: .connector, accountID: account.id)
        let now = clock.now
        try await store.transaction { tx in try await tx.touchChatConnectorToken(id: token.id, at: now) }
        return report
    }

    // MARK: WhatsApp Business Cloud API

    /// The account a business number's webhook deliveries belong to, if one claimed it.
    public func account(cloudAPIPhoneNumberID number: String) async throws -> UUID? {
        try await store.read { tx in try await tx.chatAccountID(cloudAPIPhoneNumberID: number) }
    }

    /// Webhook messages for the account that claimed their number.
    public func receiveCloudAPI(_ messages: [IncomingChatMessage], accountID: UUID) async throws -> ChatInbox.Report {
        try await inbox.receive(messages, source: .cloudAPI, accountID: accountID)
    }
}
