import Conversations
import Foundation
import Hummingbird
import JadwalCore

/// `/api/v1/chats` for the signed-in person: import an export, see the conversations Jadwal
/// follows (state, plan, the events it created), forget one, the chat settings, and the tokens
/// their chat bridges deliver messages with.
struct ChatRoutes: Sendable {
    let inbox: ChatInbox
    let store: any Store
    let clock: Clock
    let random: RandomSource
    let importLimit: Int

    func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.post("chats/import") { request, context in
            let account = try context.requireIdentity().account
            return JSONResponse(try await importExport(request, accountID: account.id))
        }

        group.get("chats") { _, context in
            let accountID = try context.requireIdentity().account.id
            let conversations = try await store.read { tx in try await tx.chatConversations(accountID: accountID) }
            return JSONResponse(ChatList(chats: conversations.map { ChatView($0, messages: nil) }))
        }

        group.get("chats/settings") { _, context in
            let accountID = try context.requireIdentity().account.id
            return JSONResponse(try await store.read { tx in try await tx.chatSettings(accountID: accountID) })
        }
        group.put("chats/settings") { request, context in
            let accountID = try context.requireIdentity().account.id
            let change = try await request.decodeJSON(as: ChatSettingsChange.self)
            return JSONResponse(try await updateSettings(change, accountID: accountID))
        }

        group.post("chats/connector-tokens") { request, context in
            let accountID = try context.requireIdentity().account.id
            struct CreateRequest: Decodable { let name: String }
            let body = try await request.decodeJSON(as: CreateRequest.self)
            return JSONResponse(try await createConnectorToken(named: body.name, accountID: accountID), status: .created)
        }
        group.get("chats/connector-tokens") { _, context in
            let accountID = try context.requireIdentity().account.id
            let tokens = try await store.read { tx in try await tx.chatConnectorTokens(accountID: accountID) }
            return JSONResponse(ConnectorTokenList(connectorTokens: tokens.map { ConnectorTokenView($0, secret: nil) }))
        }
        group.delete("chats/connector-tokens/{id}") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            let now = clock.now
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
                  try await store.transaction({ tx in try await tx.revokeChatConnectorToken(id: id, accountID: accountID, at: now) })
            else { throw APIError.notFound("No connector token with that ID.") }
            return Response(status: .noContent)
        }

        group.get("chats/{id}") { _, context in
            let accountID = try context.requireIdentity().account.id
            let id = try Self.conversationID(context)
            guard let (conversation, counts) = try await store.read({ tx -> (ChatConversation, (stored: Int, holdingText: Int))? in
                guard let conversation = try await tx.chatConversation(id: id, accountID: accountID) else { return nil }
                return (conversation, try await tx.chatMessageCounts(conversationID: id))
            }) else { throw Self.noConversation }
            return JSONResponse(ChatView(conversation, messages: .init(stored: counts.stored, holdingText: counts.holdingText)))
        }
        group.delete("chats/{id}") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            let id = try Self.conversationID(context)
            guard try await store.transaction({ tx in try await tx.deleteChatConversation(id: id, accountID: accountID) }) else {
                throw Self.noConversation
            }
            return Response(status: .noContent)
        }
    }

    /// Reads an uploaded export (raw or multipart, `me` from the query or the form) and imports
    /// it: for the API and the settings page's form alike.
    func importExport(_ request: Request, accountID: UUID) async throws -> ImportView {
        let upload = try await ChatUpload.read(request, limit: importLimit)
        let me = request.uri.queryParameters.get("me") ?? upload.fields["me"]
        let data = Data(buffer: upload.file)
        let (chat, report): (ChatExportImport, ChatInbox.Report)
        do {
            (chat, report) = try await inbox.importWhatsAppExport(data, accountID: accountID, me: me)
        } catch let problem as ChatImportProblem {
            throw ChatAPIError(problem)
        } catch let problem as MessageCipher.Problem {
            throw ChatAPIError(problem)
        }
        return ImportView(
            file: .init(name: upload.filename, messages: chat.export.messages.count, participants: chat.export.participants, me: chat.me),
            report: report)
    }

    /// A new connector token; its secret is in this answer only.
    func createConnectorToken(named raw: String, accountID: UUID) async throws -> ConnectorTokenView {
        guard let name = ChatConnectorToken.validName(raw) else {
            throw APIError.badRequest(
                "invalid_field", "Field 'name' must name the bridge in 1 to \(ChatConnectorToken.nameLimit) characters, e.g. \"whatsapp-web.js on my laptop\".")
        }
        let secret = ChatConnectorToken.newSecret(random: random)
        let token = ChatConnectorToken(id: UUID(), accountID: accountID, name: name, digest: TokenDigest(of: secret), createdAt: clock.now)
        try await store.transaction { tx in try await tx.insertChatConnectorToken(token) }
        return ConnectorTokenView(token, secret: secret)
    }

    /// Saves a change to the chat settings; resuming extraction reads what arrived while paused.
    func updateSettings(_ change: ChatSettingsChange, accountID: UUID) async throws -> ChatSettings {
        let now = clock.now
        let (before, after) = try await store.transaction { tx in
            let current = try await tx.chatSettings(accountID: accountID)
            let updated: ChatSettings
            do throws(ChatSettingsChange.Problem) {
                updated = try change.applied(to: current)
            } catch {
                throw APIError.badRequest("invalid_field", "Field \(error.description).")
            }
            if let number = updated.cloudAPIPhoneNumberID, number != current.cloudAPIPhoneNumberID,
               let holder = try await tx.chatAccountID(cloudAPIPhoneNumberID: number), holder != accountID {
                throw APIError(
                    .conflict, code: "phone_number_id_taken",
                    message: "Another account already receives this business number's WhatsApp messages; one number belongs to one account.")
            }
            try await tx.saveChatSettings(updated, accountID: accountID, at: now)
            return (current, updated)
        }
        if before.extractionPaused, !after.extractionPaused {
            // What arrived while paused is read now.
            do {
                _ = try await inbox.readAwaitingConversations(accountID: accountID)
            } catch let problem as MessageCipher.Problem {
                throw ChatAPIError(problem)
            }
        }
        return after
    }

    static let noConversation = APIError.notFound("No conversation with that ID.")

    static func conversationID(_ context: JadwalRequestContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw noConversation }
        return id
    }
}

/// `POST /api/v1/chats/messages`: a chat bridge on the person's side delivers messages with its
/// connector token (`Authorization: Bearer jadwal_ct_…`). The token only delivers; it reads nothing.
struct ChatConnectorRoutes: Sendable {
    let inbox: ChatInbox
    let store: any Store
    let clock: Clock

    /// 1,000 messages of everyday length fit well under it.
    static let bodyLimit = 4 * 1024 * 1024

    func addRoutes(to router: Router<JadwalRequestContext>) {
        router.post("api/v1/chats/messages") { request, context in
            let (token, account) = try await authenticate(request)
            let body = try await request.jsonBody(limit: Self.bodyLimit)
            let batch: ConnectorBatch
            do throws(ConnectorBatchError) {
                batch = try ConnectorBatch(json: body)
            } catch {
                throw ChatAPIError(error)
            }
            let report = try await deliver(batch.messages.map(IncomingChatMessage.init), token: token, account: account)
            return JSONResponse(DeliveryView(report))
        }
    }

    /// Stores a validated batch for the token's account and reads its conversations: where a
    /// decoded batch goes, whatever decoded it.
    func deliver(_ messages: [IncomingChatMessage], token: ChatConnectorToken, account: Account) async throws -> ChatInbox.Report {
        let report: ChatInbox.Report
        do {
            report = try await inbox.receive(messages, source: .connector, accountID: account.id)
        } catch let problem as MessageCipher.Problem {
            throw ChatAPIError(problem)
        }
        let now = clock.now
        try await store.transaction { tx in try await tx.touchChatConnectorToken(id: token.id, at: now) }
        return report
    }

    func authenticate(_ request: Request) async throws -> (ChatConnectorToken, Account) {
        guard let header = request.headers[.authorization] else {
            throw APIError.unauthorized("missing_connector_token", "Send the connector token: Authorization: Bearer <connector token>.")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError.unauthorized("invalid_authorization_header", "Use the form: Authorization: Bearer <connector token>.")
        }
        let presented = parts[1].trimmingCharacters(in: .whitespaces)
        guard presented.hasPrefix(ChatConnectorToken.prefix),
              let (token, account) = try await store.read({ tx in try await tx.chatConnectorToken(digest: TokenDigest(of: presented)) })
        else {
            throw APIError.unauthorized(
                "invalid_connector_token", "This connector token is not valid (revoked, or never issued). Create one at /api/v1/chats/connector-tokens.")
        }
        guard !account.isDisabled else {
            throw APIError(.forbidden, code: "account_disabled", message: "This account is disabled. Ask the server's operator.")
        }
        return (token, account)
    }
}

// MARK: - Errors

/// A chat error in the API's error shape, with what the client needs to try again: the line of
/// the export that is wrong, or the participants to choose `me` from.
struct ChatAPIError: Error, HTTPResponseError, Sendable {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    var line: Int?
    var participants: [String]?
    /// Every problem of a refused connector batch, so its author fixes them in one round.
    var problems: [BatchProblem]?

    struct BatchProblem: Encodable, Sendable {
        let path: String?
        let message: String
    }

    var headers: HTTPFields { [:] }

    init(_ problem: ChatImportProblem) {
        participants = problem.participants
        switch problem {
        case .unreadable(let error), .archive(.export(_, let error)):
            status = .unprocessableContent
            line = error.line
            message = Self.sentence(problem.description)
            code = switch error.reason {
            case .invalidUTF8: "invalid_utf8"
            case .empty: "empty_export"
            case .notAnExport: "not_a_whatsapp_export"
            case .impossibleDate: "impossible_date"
            case .inconsistentDateOrder: "inconsistent_date_order"
            }
        case .archive(let error):
            status = .unprocessableContent
            message = Self.sentence(error.description)
            switch error {
            case .notACompleteZip: code = "incomplete_zip"
            case .zip64: code = "zip64_not_supported"
            case .damagedEntry: code = "damaged_zip"
            case .unsupportedCompression: code = "unsupported_zip_compression"
            case .noChatText: code = "no_chat_in_zip"
            case .ambiguousChatText: code = "ambiguous_chat_in_zip"
            case .chatTextTooLarge:
                status = .contentTooLarge
                code = "chat_too_large"
            case .export: code = "not_a_whatsapp_export"  // read above
            }
        case .whoIsMe:
            status = .conflict
            code = "me_required"
            message = "Which participant are you? None matches your account's name. Send ?me=<name> (or the form field 'me') with one of the participants."
        case .notAParticipant(let name, _):
            status = .unprocessableContent
            code = "me_not_a_participant"
            message = "\"\(name)\" did not write in this chat. Send ?me=<name> with one of the participants."
        case .nobodyElse:
            status = .unprocessableContent
            code = "no_other_participant"
            message = Self.sentence(problem.description)
        }
    }

    /// A description as a sentence: capitalised, with a full stop.
    static func sentence(_ description: String) -> String {
        description.prefix(1).uppercased() + description.dropFirst() + "."
    }

    init(_ error: ConnectorBatchError) {
        status = .badRequest
        code = "invalid_batch"
        message = Self.sentence(error.description)
        problems = error.problems.map { BatchProblem(path: $0.path, message: $0.description) }
    }

    /// The server's chat key cannot read the stored messages: an operator's problem, said plainly.
    init(_ problem: MessageCipher.Problem) {
        status = .internalServerError
        code = "chat_key_mismatch"
        message = "The server cannot read its stored chat messages: \(problem). Ask the server's operator."
    }

    private struct Envelope: Encodable {
        struct Body: Encodable {
            let code: String
            let message: String
            let line: Int?
            let participants: [String]?
            let problems: [BatchProblem]?
        }
        let error: Body
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try JSONEncoder().encode(Envelope(error: .init(code: code, message: message, line: line, participants: participants, problems: problems)))
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

// MARK: - Views

struct ChatList: Encodable, Sendable {
    let chats: [ChatView]
}

struct ChatView: Encodable, Sendable {
    struct Messages: Encodable, Sendable {
        let stored: Int
        let holdingText: Int
    }

    struct EventView: Encodable, Sendable {
        let uid: String
        let name: String
        let calendarId: String
        let status: ChatEventLink.Status
        let title: String?
        let start: String?
        let end: String?
        let allDay: Bool
    }

    let id: String
    let partner: String
    let source: ChatSource
    let isGroup: Bool
    let state: ConversationState
    let proposal: ChatPlan?
    let events: [EventView]
    let awaitingExtraction: Bool
    /// A live chat waiting to be quiet is read then (unless another message comes first).
    let readAfter: Date?
    let lastActivityAt: Date
    let resolvedAt: Date?
    let createdAt: Date
    /// Only for one conversation: how many messages are stored, and how many still hold text.
    let messages: Messages?

    init(_ conversation: ChatConversation, messages: Messages?) {
        id = conversation.id.uuidString.lowercased()
        partner = conversation.partnerName
        source = conversation.source
        isGroup = conversation.isGroup
        state = conversation.state
        proposal = conversation.proposal
        events = conversation.events.map {
            EventView(
                uid: $0.uid, name: $0.objectName, calendarId: $0.calendarID.uuidString.lowercased(), status: $0.status, title: $0.plan.title,
                start: $0.plan.start, end: $0.plan.end, allDay: $0.plan.allDay)
        }
        awaitingExtraction = conversation.awaitingExtraction
        readAfter = conversation.readAfter
        lastActivityAt = conversation.lastActivityAt
        resolvedAt = conversation.resolvedAt
        createdAt = conversation.createdAt
        self.messages = messages
    }
}

/// What an import or a delivery did.
struct DeliveryView: Encodable, Sendable {
    struct Conversation: Encodable, Sendable {
        let id: String
        let partner: String
        let source: ChatSource
        let isGroup: Bool
        let state: ConversationState
        let proposal: ChatPlan?
        let newMessages: Int
        let awaitingExtraction: Bool
    }

    struct Event: Encodable, Sendable {
        let conversationId: String
        let uid: String
        let name: String
        let change: ChatEventChange
        let title: String?
        let start: String?
    }

    let messages: ChatInbox.Report.Messages
    let conversations: [Conversation]
    let events: [Event]
    let skippedGroupChats: Int

    init(_ report: ChatInbox.Report) {
        messages = report.messages
        conversations = report.conversations.map {
            Conversation(
                id: $0.id.uuidString.lowercased(), partner: $0.partner, source: $0.source, isGroup: $0.isGroup, state: $0.state,
                proposal: $0.proposal, newMessages: $0.newMessages, awaitingExtraction: $0.awaitingExtraction)
        }
        events = report.events.map {
            Event(conversationId: $0.conversationID.uuidString.lowercased(), uid: $0.uid, name: $0.objectName, change: $0.change, title: $0.title, start: $0.start)
        }
        skippedGroupChats = report.skippedGroupChats
    }
}

struct ImportView: Encodable, Sendable {
    struct File: Encodable, Sendable {
        let name: String?
        /// Messages in the file, system notices and media included.
        let messages: Int
        let participants: [String]
        let me: String
    }

    let file: File
    let messages: ChatInbox.Report.Messages
    let conversations: [DeliveryView.Conversation]
    let events: [DeliveryView.Event]

    init(file: File, report: ChatInbox.Report) {
        self.file = file
        let delivery = DeliveryView(report)
        messages = delivery.messages
        conversations = delivery.conversations
        events = delivery.events
    }
}

struct ConnectorTokenList: Encodable, Sendable {
    let connectorTokens: [ConnectorTokenView]
}

struct ConnectorTokenView: Encodable, Sendable {
    let id: String
    let name: String
    let createdAt: Date
    let lastUsedAt: Date?
    /// Only in the answer that created it.
    let token: String?

    init(_ token: ChatConnectorToken, secret: String?) {
        id = token.id.uuidString.lowercased()
        name = token.name
        createdAt = token.createdAt
        lastUsedAt = token.lastUsedAt
        self.token = secret
    }
}
