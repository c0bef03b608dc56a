import Conversations
import Foundation
import Hummingbird
import JadwalCore

/// `/api/v1/chats` for the signed-in person: import an export, see the conversations Jadwal
/// follows (state, plan, the events it created), forget one, the chat settings, and the tokens
/// their chat bridges deliver messages with.
struct ChatRoutes: Sendable {
    let chats: Chats
    let importLimit: Int

    func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.post("chats/import") { request, context in
            let account = try context.requireIdentity().account
            return JSONResponse(try await importExport(request, accountID: account.id))
        }

        group.get("chats") { _, context in
            let accountID = try context.requireIdentity().account.id
            let conversations = try await chats.conversations(accountID: accountID)
            return JSONResponse(ChatList(chats: conversations.map { ChatView($0, messages: nil) }))
        }

        group.get("chats/settings") { _, context in
            let accountID = try context.requireIdentity().account.id
            return JSONResponse(try await chats.settings(accountID: accountID))
        }
        group.put("chats/settings") { request, context in
            let accountID = try context.requireIdentity().account.id
            let change = try await request.decodeJSON(as: ChatSettingsChange.self)
            return JSONResponse(try await Self.answering { try await chats.updateSettings(change, accountID: accountID) })
        }

        group.post("chats/connector-tokens") { request, context in
            let accountID = try context.requireIdentity().account.id
            struct CreateRequest: Decodable { let name: String }
            let body = try await request.decodeJSON(as: CreateRequest.self)
            let (token, secret) = try await Self.answering { try await chats.createConnectorToken(named: body.name, accountID: accountID) }
            return JSONResponse(ConnectorTokenView(token, secret: secret), status: .created)
        }
        group.get("chats/connector-tokens") { _, context in
            let accountID = try context.requireIdentity().account.id
            let tokens = try await chats.connectorTokens(accountID: accountID)
            return JSONResponse(ConnectorTokenList(connectorTokens: tokens.map { ConnectorTokenView($0, secret: nil) }))
        }
        group.delete("chats/connector-tokens/{id}") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw Self.apiError(.noConnectorToken) }
            try await Self.answering { try await chats.revokeConnectorToken(id: id, accountID: accountID) }
            return Response(status: .noContent)
        }

        group.get("chats/{id}") { _, context in
            let accountID = try context.requireIdentity().account.id
            let id = try Self.conversationID(context)
            let (conversation, stored, holdingText) = try await Self.answering { try await chats.conversation(id: id, accountID: accountID) }
            return JSONResponse(ChatView(conversation, messages: .init(stored: stored, holdingText: holdingText)))
        }
        group.delete("chats/{id}") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            let id = try Self.conversationID(context)
            try await Self.answering { try await chats.forget(id: id, accountID: accountID) }
            return Response(status: .noContent)
        }
    }

    /// Reads an uploaded export (raw or multipart, `me` from the query or the form) and imports it.
    func importExport(_ request: Request, accountID: UUID) async throws -> ImportView {
        try await Self.answering { try await ChatUpload.importing(request, limit: importLimit, into: chats, accountID: accountID) }
    }

    /// Runs a chat operation, turning what the chat services refuse into the API's answers.
    static func answering<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let problem as Chats.Problem {
            throw apiError(problem)
        } catch let problem as ChatImportProblem {
            throw ChatAPIError(problem)
        } catch let problem as MessageCipher.Problem {
            throw ChatAPIError(problem)
        }
    }

    static func apiError(_ problem: Chats.Problem) -> APIError {
        switch problem {
        case .invalidSetting(let setting): APIError.badRequest("invalid_field", "Field \(setting.description).")
        case .phoneNumberTaken:
            APIError(.conflict, code: "phone_number_id_taken", message: ChatAPIError.sentence(problem.description))
        case .noConversation: APIError.notFound("No conversation with that ID.")
        case .noConnectorToken: APIError.notFound("No connector token with that ID.")
        case .invalidTokenName:
            APIError.badRequest(
                "invalid_field", "Field 'name' must name the bridge in 1 to \(ChatConnectorToken.nameLimit) characters, e.g. \"whatsapp-web.js on my laptop\".")
        case .invalidConnectorToken:
            APIError.unauthorized(
                "invalid_connector_token", "This connector token is not valid (revoked, or never issued). Create one at /api/v1/chats/connector-tokens.")
        case .accountDisabled: APIError(.forbidden, code: "account_disabled", message: "This account is disabled. Ask the server's operator.")
        }
    }

    static func conversationID(_ context: JadwalRequestContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw apiError(.noConversation) }
        return id
    }
}

/// `POST /api/v1/chats/messages`: a chat bridge on the person's side delivers messages with its
/// connector token (`Authorization: Bearer jadwal_ct_…`). The token only delivers; it reads nothing.
struct ChatConnectorRoutes: Sendable {
    let chats: Chats

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
            let report = try await ChatRoutes.answering {
                try await chats.deliver(batch.messages.map(IncomingChatMessage.init), token: token, account: account)
            }
            return JSONResponse(DeliveryView(report))
        }
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
        return try await ChatRoutes.answering { try await chats.connector(presenting: presented) }
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
        code = problem.code
        message = problem.sentence
        line = problem.line
        status = problem.isTooLarge ? .contentTooLarge : problem.isWhoIsMe ? .conflict : .unprocessableContent
    }

    /// A description as a sentence: capitalised, with a full stop.
    static func sentence(_ description: String) -> String { description.asSentence }

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
