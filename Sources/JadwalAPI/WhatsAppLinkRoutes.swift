import Conversations
import Crypto
import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP
import NIOCore

/// `/api/v1/whatsapp/link` for the signed-in person: ask for a pairing code, follow the link's
/// state, cancel or unlink.
package struct WhatsAppLinkRoutes: Sendable {
    package let links: WhatsAppLinks
    /// This server runs the bridge; without it a code would never come.
    package let bridgeRunning: Bool
    /// How long `POST` waits for the bridge to bring WhatsApp's code before answering without it.
    package let codeWait: Duration

    package init(links: WhatsAppLinks, bridgeRunning: Bool, codeWait: Duration = .seconds(20)) {
        self.links = links
        self.bridgeRunning = bridgeRunning
        self.codeWait = codeWait
    }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.post("whatsapp/link") { request, context in
            let accountID = try context.requireIdentity().account.id
            guard bridgeRunning else {
                throw APIError(
                    .serviceUnavailable, code: "whatsapp_bridge_off",
                    message: "This server does not run the WhatsApp bridge. Its operator starts it with jadwal serve --whatsapp-bridge.")
            }
            struct LinkRequest: Decodable {
                /// `code` (the default: a pairing code for `phone`) or `qr`.
                let method: String?
                let phone: String?
                let historyDays: Int?
            }
            let body = try await request.decodeJSON(as: LinkRequest.self)
            let method: WhatsAppLinks.Method
            switch body.method ?? "code" {
            case "code":
                guard let phone = body.phone else { throw APIError.badRequest("invalid_field", "Field 'phone' is required to link with a pairing code.") }
                method = .pairingCode(phone: phone)
            case "qr": method = .qr
            default: throw APIError.badRequest("invalid_field", "Field 'method' must be \"code\" or \"qr\".")
            }
            let started = try await links.start(method, historyDays: body.historyDays, accountID: accountID)
            let link = try await links.awaitCode(attempt: started.attempt, accountID: accountID, timeout: codeWait)
            // 201 with the code or QR; 202 while WhatsApp has not given one yet (follow with GET).
            return JSONResponse(WhatsAppLinkView(link), status: link.code != nil || link.qr != nil ? .created : .accepted)
        }
        // The waiting QR code as an image to scan; it changes as WhatsApp rotates it.
        group.get("whatsapp/link/qr.svg") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            let link = try await links.status(accountID: accountID)
            guard link.state == .waiting, let payload = link.qr, let svg = QRCode.svg(payload, title: "WhatsApp") else {
                throw APIError(.notFound, code: "no_qr", message: "No QR code is waiting to be scanned. Ask for one with POST /api/v1/whatsapp/link {\"method\": \"qr\"}.")
            }
            var headers = HTTPFields()
            headers[.contentType] = "image/svg+xml"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: svg)))
        }
        group.get("whatsapp/link") { _, context in
            let accountID = try context.requireIdentity().account.id
            return JSONResponse(WhatsAppLinkView(try await links.status(accountID: accountID)))
        }
        group.delete("whatsapp/link") { _, context in
            let accountID = try context.requireIdentity().account.id
            return JSONResponse(WhatsAppLinkView(try await links.cancel(accountID: accountID)))
        }
    }
}

/// The link as the person sees it; never the session.
package struct WhatsAppLinkView: Encodable, Sendable {
    package let state: WhatsAppLink.State
    package let reason: String?
    /// `code` (a pairing code for the phone number) or `qr`.
    package let method: String
    /// As WhatsApp shows it: `ABCD-EFGH`.
    package let code: String?
    /// The payload to show as a QR code while a QR link waits (or fetch `…/link/qr.svg`).
    package let qr: String?
    package let expiresAt: Date?
    package let phone: String?
    package let linkedAs: String?
    package let historyDays: Int
    package let updatedAt: Date

    package init(_ link: WhatsAppLink) {
        state = link.state
        reason = link.reason
        method = link.usesQR ? "qr" : "code"
        code = link.code.map(Self.grouped)
        qr = link.state == .waiting ? link.qr : nil
        expiresAt = link.state == .waiting ? link.expiresAt : nil
        phone = link.usesQR ? nil : "+" + link.phone
        linkedAs = link.jid
        historyDays = link.historyDays
        updatedAt = link.updatedAt
    }

    /// whatsmeow returns `ABCD-EFGH` already; a bare 8 characters are grouped the same way.
    static func grouped(_ code: String) -> String {
        guard code.count == 8, !code.contains("-") else { return code }
        return String(code.prefix(4)) + "-" + String(code.suffix(4))
    }
}

/// `/internal/whatsapp/…`: the bundled bridge, from loopback only, with the token the server
/// made for it at start. It lists the links to serve, reports their changes, hands back sealed
/// sessions' bytes and delivers messages in the connector's batch format.
package struct WhatsAppBridgeRoutes: Sendable {
    package let links: WhatsAppLinks
    package let token: String

    package init(links: WhatsAppLinks, token: String) {
        self.links = links
        self.token = token
    }

    package static let bodyLimit = ChatConnectorRoutes.bodyLimit
    /// A session is base64 of up to 16 MB.
    package static let sessionBodyLimit = WhatsAppLinks.sessionLimit * 4 / 3 + 1024

    package func addRoutes(to router: RouterGroup<JadwalRequestContext>) {
        router.get("internal/whatsapp/links") { request, context in
            try authenticate(request, context)
            let work = try await links.bridgeWork()
            return JSONResponse(BridgeWorkView(links: work.map(BridgeWorkView.Item.init)))
        }
        router.post("internal/whatsapp/accounts/{id}/events") { request, context -> Response in
            try authenticate(request, context)
            let accountID = try Self.accountID(context)
            struct EventBody: Decodable {
                let event: String
                let code: String?
                let qr: String?
                let jid: String?
                let reason: String?
            }
            let body = try await request.decodeJSON(as: EventBody.self)
            let event: WhatsAppLinks.BridgeEvent
            switch body.event {
            case "code":
                guard let code = body.code, !code.isEmpty, code.count <= 16 else { throw APIError.badRequest("invalid_field", "Field 'code' is required.") }
                event = .code(code)
            case "qr":
                guard let qr = body.qr else { throw APIError.badRequest("invalid_field", "Field 'qr' is required.") }
                event = .qr(qr)
            case "linked": event = .linked(jid: body.jid)
            case "failed": event = .failed(reason: body.reason ?? "failed")
            case "logged_out": event = .loggedOut(reason: body.reason ?? "logged_out")
            default: throw WhatsAppLinks.Problem.unknownEvent(String(body.event.prefix(40)))
            }
            try await links.report(event, accountID: accountID)
            return Response(status: .noContent)
        }
        router.put("internal/whatsapp/accounts/{id}/session") { request, context -> Response in
            try authenticate(request, context)
            let accountID = try Self.accountID(context)
            struct SessionBody: Decodable { let session: String }
            let body = try await request.decodeJSON(as: SessionBody.self, limit: Self.sessionBodyLimit)
            guard let data = Data(base64Encoded: body.session) else { throw WhatsAppLinks.Problem.invalidSession }
            try await links.saveSession(data, accountID: accountID)
            return Response(status: .noContent)
        }
        router.post("internal/whatsapp/accounts/{id}/messages") { request, context in
            try authenticate(request, context)
            let accountID = try Self.accountID(context)
            let body = try await request.jsonBody(limit: Self.bodyLimit)
            let batch: ConnectorBatch
            do throws(ConnectorBatchError) {
                batch = try ConnectorBatch(json: body)
            } catch {
                throw ChatAPIError(error)
            }
            let report = try await links.deliver(
                batch.messages.map(IncomingChatMessage.init), retracted: batch.retractions.map(ChatMessageRetraction.init), accountID: accountID)
            return JSONResponse(DeliveryView(report))
        }
    }

    /// Loopback and the token: the token alone would let anyone who saw it act as every linked device.
    func authenticate(_ request: Request, _ context: JadwalRequestContext) throws {
        guard let address = context.remoteAddress, Self.isLoopback(address) else {
            throw APIError(.forbidden, code: "not_loopback", message: "The WhatsApp bridge reaches this server over loopback only.")
        }
        let presented = request.headers[.authorization].flatMap { header -> String? in
            let parts = header.split(separator: " ", maxSplits: 1)
            return parts.count == 2 && parts[0].lowercased() == "bearer" ? String(parts[1]) : nil
        }
        // Compared as digests, in constant time.
        guard let presented, Data(SHA256.hash(data: Data(presented.utf8))) == Data(SHA256.hash(data: Data(token.utf8))) else {
            throw APIError.unauthorized("invalid_bridge_token", "This is not the token this server gave its WhatsApp bridge.")
        }
    }

    static func isLoopback(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4: address.ipAddress?.hasPrefix("127.") ?? false
        case .v6: address.ipAddress == "::1" || (address.ipAddress?.hasPrefix("::ffff:127.") ?? false)
        case .unixDomainSocket: true
        }
    }

    static func accountID(_ context: JadwalRequestContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw WhatsAppLinks.Problem.noLink }
        return id
    }
}

package struct BridgeWorkView: Encodable, Sendable {
    package struct Item: Encodable, Sendable {
        let accountId: String
        let attempt: String
        let phone: String
        let state: WhatsAppLink.State
        let jid: String?
        let historyDays: Int
        /// `code`: pair with `phone`; `qr`: show QR codes to scan.
        let method: String
        /// Base64 of the device store, opened for the bridge; nil until it first hands one back.
        let session: String?

        init(_ work: WhatsAppLinks.Work) {
            accountId = work.link.accountID.uuidString.lowercased()
            attempt = work.link.attempt.uuidString.lowercased()
            phone = work.link.phone
            state = work.link.state
            jid = work.link.jid
            historyDays = work.link.historyDays
            method = work.link.usesQR ? "qr" : "code"
            session = work.session?.base64EncodedString()
        }
    }

    let links: [Item]
}
