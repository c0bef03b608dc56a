import Conversations
import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP

/// `/api/v1/chats` for the signed-in person: import an export, see the conversations Jadwal
/// follows (state, plan, the events it created), forget one, the chat settings, and the tokens
/// their chat bridges deliver messages with.
package struct ChatRoutes: Sendable {
    package let chats: Chats
    package let importLimit: Int

    package init(chats: Chats, importLimit: Int) {
        self.chats = chats
        self.importLimit = importLimit
    }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
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
            return JSONResponse(try await chats.updateSettings(change, accountID: accountID))
        }

        group.post("chats/connector-tokens") { request, context in
            let accountID = try context.requireIdentity().account.id
            struct CreateRequest: Decodable { let name: String }
            let body = try await request.decodeJSON(as: CreateRequest.self)
            let (token, secret) = try await chats.createConnectorToken(named: body.name, accountID: accountID)
            return JSONResponse(ConnectorTokenView(token, secret: secret), status: .created)
        }
        group.get("chats/connector-tokens") { _, context in
            let accountID = try context.requireIdentity().account.id
            let tokens = try await chats.connectorTokens(accountID: accountID)
            return JSONResponse(ConnectorTokenList(connectorTokens: tokens.map { ConnectorTokenView($0, secret: nil) }))
        }
        group.delete("chats/connector-tokens/{id}") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw APIError(Chats.Problem.noConnectorToken) }
            try await chats.revokeConnectorToken(id: id, accountID: accountID)
            return Response(status: .noContent)
        }

        group.get("chats/{id}") { _, context in
            let accountID = try context.requireIdentity().account.id
            let id = try Self.conversationID(context)
            let (conversation, stored, holdingText) = try await chats.conversation(id: id, accountID: accountID)
            return JSONResponse(ChatView(conversation, messages: .init(stored: stored, holdingText: holdingText)))
        }
        group.delete("chats/{id}") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            let id = try Self.conversationID(context)
            try await chats.forget(id: id, accountID: accountID)
            return Response(status: .noContent)
        }
    }

    /// Reads an uploaded export (raw or multipart, `me` from the query or the form) and imports it.
    package func importExport(_ request: Request, accountID: UUID) async throws -> ImportView {
        try await ChatUpload.importing(request, limit: importLimit, into: chats, accountID: accountID)
    }

    package static func conversationID(_ context: JadwalRequestContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw APIError(Chats.Problem.noConversation) }
        return id
    }
}

/// `POST /api/v1/chats/messages`: a chat bridge on the person's side delivers messages with its
/// connector token (`Authorization: Bearer jadwal_ct_…`). The token only delivers; it reads nothing.
package struct ChatConnectorRoutes: Sendable {
    package let chats: Chats

    package init(chats: Chats) {
        self.chats = chats
    }

    /// 1,000 messages of everyday length fit well under it.
    package static let bodyLimit = 4 * 1024 * 1024

    package func addRoutes(to router: RouterGroup<JadwalRequestContext>) {
        router.post("api/v1/chats/messages") { request, context in
            let (token, account) = try await authenticate(request)
            let body = try await request.jsonBody(limit: Self.bodyLimit)
            let batch: ConnectorBatch
            do throws(ConnectorBatchError) {
                batch = try ConnectorBatch(json: body)
            } catch {
                throw ChatAPIError(error)
            }
            let report = try await chats.deliver(
                batch.messages.map(IncomingChatMessage.init), retracted: batch.retractions.map(ChatMessageRetraction.init), token: token, account: account)
            return JSONResponse(DeliveryView(report))
        }
    }

    package func authenticate(_ request: Request) async throws -> (ChatConnectorToken, Account) {
        guard let header = request.headers[.authorization] else {
            throw APIError.unauthorized("missing_connector_token", "Send the connector token: Authorization: Bearer <connector token>.")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError.unauthorized("invalid_authorization_header", "Use the form: Authorization: Bearer <connector token>.")
        }
        let presented = parts[1].trimmingCharacters(in: .whitespaces)
        return try await chats.connector(presenting: presented)
    }
}

// MARK: - Views

package struct ChatList: Encodable, Sendable {
    package let chats: [ChatView]
}

package struct ChatView: Encodable, Sendable {
    package struct Messages: Encodable, Sendable {
        package let stored: Int
        package let holdingText: Int
    }

    package struct EventView: Encodable, Sendable {
        package let uid: String
        package let name: String
        package let calendarId: String
        package let status: ChatEventLink.Status
        package let title: String?
        package let start: String?
        package let end: String?
        package let allDay: Bool
    }

    package let id: String
    package let partner: String
    package let source: ChatSource
    package let isGroup: Bool
    package let state: ConversationState
    package let proposal: ChatPlan?
    package let events: [EventView]
    package let awaitingExtraction: Bool
    /// A live chat waiting to be quiet is read then (unless another message comes first).
    package let readAfter: Date?
    package let lastActivityAt: Date
    package let resolvedAt: Date?
    package let createdAt: Date
    /// Only for one conversation: how many messages are stored, and how many still hold text.
    package let messages: Messages?

    package init(_ conversation: ChatConversation, messages: Messages?) {
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


package struct ConnectorTokenList: Encodable, Sendable {
    package let connectorTokens: [ConnectorTokenView]
}

package struct ConnectorTokenView: Encodable, Sendable {
    package let id: String
    package let name: String
    package let createdAt: Date
    package let lastUsedAt: Date?
    /// Only in the answer that created it.
    package let token: String?

    package init(_ token: ChatConnectorToken, secret: String?) {
        id = token.id.uuidString.lowercased()
        name = token.name
        createdAt = token.createdAt
        lastUsedAt = token.lastUsedAt
        self.token = secret
    }
}
