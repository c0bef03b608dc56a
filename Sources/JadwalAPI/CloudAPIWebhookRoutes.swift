import Conversations
import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP
import Logging
import NIOCore

/// `/webhooks/whatsapp`, the callback URL of a Meta app subscribed to WhatsApp Business Cloud API
/// `messages`: the GET handshake that proves the URL is ours, and POSTed deliveries, taken only
/// when `X-Hub-Signature-256` proves Meta signed them with the app secret. A delivery's messages
/// go to the account whose chat settings name the business number (`phone_number_id`).
package struct CloudAPIWebhookRoutes: Sendable {
    package let chats: Chats
    /// The Meta app's App Secret; nil when the webhook is not set up on this server.
    package let appSecret: String?
    /// The Verify Token typed into the App Dashboard; nil when the webhook is not set up.
    package let verifyToken: String?
    package let logger: Logger

    package init(chats: Chats, appSecret: String?, verifyToken: String?, logger: Logger) {
        self.chats = chats
        self.appSecret = appSecret
        self.verifyToken = verifyToken
        self.logger = logger
    }

    package static let path = HTTPPaths.whatsAppWebhook
    /// Meta's deliveries are a few kilobytes; a megabyte bounds what an unsigned sender can make
    /// us hash.
    package static let bodyLimit = 1024 * 1024

    package func addRoutes(to router: RouterGroup<JadwalRequestContext>) {
        router.get(RouterPath(stringLiteral: Self.path)) { request, _ -> Response in
            let query = request.uri.queryParameters.map { URLQueryItem(name: String($0.key), value: String($0.value)) }
            switch CloudAPIVerification(queryItems: query, verifyToken: verifyToken ?? "") {
            case .accept(let challenge):
                return Response(
                    status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: challenge)))
            case .refuse(let refusal):
                // The reason is for the operator; the caller only learns that it was refused.
                logger.warning("WhatsApp webhook verification refused", metadata: ["reason": "\(refusal)"])
                throw APIError(.forbidden, code: "verification_refused", message: "The webhook verification request was refused.")
            }
        }

        router.post(RouterPath(stringLiteral: Self.path)) { request, _ in
            guard let appSecret else {
                throw APIError(
                    .notFound, code: "webhook_not_configured",
                    message: "The WhatsApp webhook is not set up on this server: its operator sets JADWAL_WHATSAPP_APP_SECRET and JADWAL_WHATSAPP_VERIFY_TOKEN.")
            }
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: Self.bodyLimit)
            } catch is NIOTooManyBytesError {
                throw APIError(.contentTooLarge, code: "body_too_large", message: "The request body is larger than \(Self.bodyLimit) bytes.")
            }
            let raw = Data(buffer: body)
            do throws(CloudAPISignatureError) {
                try CloudAPISignature(appSecret: appSecret).verify(header: request.headers[.xHubSignature256], body: raw)
            } catch {
                logger.warning("WhatsApp webhook delivery refused: bad signature", metadata: ["reason": "\(error)"])
                throw APIError.unauthorized("invalid_signature", error.description.asSentence)
            }
            let delivery: CloudAPIWebhook
            do throws(CloudAPIWebhookError) {
                delivery = try CloudAPIWebhook(body: raw)
            } catch {
                throw APIError.badRequest("invalid_delivery", error.description.asSentence)
            }
            return JSONResponse(try await receive(delivery))
        }
    }

    /// What a delivery did; Meta only looks at the status, this is for people testing the webhook.
    package struct Receipt: Encodable, Sendable {
        package var messages = 0
        package var stored = 0
        package var duplicates = 0
        /// Status updates of messages the business sent: not messages, so not read.
        package var statuses = 0
        /// Messages to a business number no account has claimed (see chat settings).
        package var unrouted = 0
    }

    package func receive(_ delivery: CloudAPIWebhook) async throws -> Receipt {
        var receipt = Receipt(messages: delivery.messages.count, statuses: delivery.statusCount)
        var numbers: [String] = []
        var byNumber: [String: [CloudAPIMessage]] = [:]
        for message in delivery.messages {
            if byNumber[message.phoneNumberID] == nil { numbers.append(message.phoneNumberID) }
            byNumber[message.phoneNumberID, default: []].append(message)
        }
        for number in numbers {
            let messages = byNumber[number] ?? []
            guard let accountID = try await chats.account(cloudAPIPhoneNumberID: number) else {
                // A 200 all the same: an error would only make Meta redeliver to no one.
                logger.warning(
                    "WhatsApp webhook messages for a business number no account has claimed",
                    metadata: ["phone_number_id": "\(number)", "messages": "\(messages.count)"])
                receipt.unrouted += messages.count
                continue
            }
            let report: ChatInbox.Report
            do {
                report = try await chats.receiveCloudAPI(messages.map(IncomingChatMessage.init), accountID: accountID)
            } catch let problem as MessageCipher.Problem {
                throw ChatAPIError(problem)
            }
            receipt.stored += report.messages.new
            receipt.duplicates += report.messages.duplicates
        }
        return receipt
    }
}

extension HTTPField.Name {
    package static let xHubSignature256 = Self(CloudAPISignature.headerName)!
}
