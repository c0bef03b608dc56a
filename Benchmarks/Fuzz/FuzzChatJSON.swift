// libFuzzer entry point for the chat JSON that arrives over HTTP (issue 22): connector batches
// (Sources/Conversations/Connector) and WhatsApp Cloud API webhook deliveries
// (Sources/Conversations/CloudAPI). Built together with Sources/Conversations (see README.md).
//
// The first byte picks the entry point, the rest is the body:
//   0 ConnectorBatch(json:) with the standard limits
//   1 ConnectorBatch(json:) with tiny limits (3 messages, 16 text bytes, 8-scalar ids)
//   2 CloudAPIWebhook(body:), after CloudAPISignature has verified the body with the header
//     Meta would send for it (computed here with the same secret)
//   3 CloudAPISignature.verify with a fuzzed header: the first line is the header, the rest the
//     body. It must accept exactly the computed signature (hex in either case, spaces around)
//   4 CloudAPIVerification(queryItems:verifyToken:): the body is a URL query string
// Whatever parses is walked and checked against the limits and promises of the types. Any
// crash, hang, sanitizer report or failed check is a finding.

import Foundation

private let tinyLimits = ConnectorBatchLimits(maximumMessages: 3, maximumTextBytes: 16, maximumIDLength: 8)
private let signature = CloudAPISignature(appSecret: "fuzz-app-secret")

private func fail(_ message: String) -> Never {
    fatalError("fuzz check failed: \(message)")
}

private func walk(_ batch: ConnectorBatch, limits: ConnectorBatchLimits) {
    guard batch.messages.count + batch.retractions.count <= limits.maximumMessages else {
        fail("a batch of \(batch.messages.count)+\(batch.retractions.count) items passed a limit of \(limits.maximumMessages)")
    }
    let plausible: Range<TimeInterval> = 946_684_800..<4_102_444_800
    for message in batch.messages {
        for id in [message.chatID, message.messageID, message.sender] + (message.replaces.map { [$0] } ?? []) {
            guard id.unicodeScalars.count <= limits.maximumIDLength, !id.allSatisfy(\.isWhitespace) else {
                fail("an id \(id.debugDescription) passed the checks")
            }
        }
        guard (message.text?.utf8.count ?? 0) <= limits.maximumTextBytes else { fail("a text over the limit passed") }
        guard plausible.contains(message.timestamp.timeIntervalSince1970) else {
            fail("timestamp \(message.timestamp.timeIntervalSince1970) outside 2000..2100 passed")
        }
    }
    for retraction in batch.retractions {
        guard !retraction.chatID.allSatisfy(\.isWhitespace), !retraction.messageID.allSatisfy(\.isWhitespace) else {
            fail("a blank retraction id passed")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChatJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let selector = data[0] % 5
    let body = Data(bytes: data + 1, count: size - 1)
    switch selector {
    case 0, 1:
        let limits = selector == 0 ? ConnectorBatchLimits.standard : tinyLimits
        do {
            let batch = try ConnectorBatch(json: body, limits: limits)
            walk(batch, limits: limits)
        } catch {
            guard !error.problems.isEmpty else { fail("a refused batch names no problem") }
            _ = error.description
        }
    case 2:
        let header = signature.headerValue(for: body)
        do {
            try signature.verify(header: header, body: body)
        } catch {
            fail("the computed signature \(header) was refused: \(error)")
        }
        do {
            let delivery = try CloudAPIWebhook(body: body)
            for message in delivery.messages {
                _ = (message.phoneNumberID, message.from, message.customer, message.sentByBusiness, message.senderName)
                _ = (message.id, message.timestamp, message.type, message.text, message.contextMessageID)
            }
            _ = delivery.statusCount
        } catch {
            _ = error.description
        }
    case 3:
        let split = body.firstIndex(of: 0x0A)
        let headerBytes = split.map { body[body.startIndex..<$0] } ?? body[...]
        let signed = split.map { body[body.index(after: $0)...] } ?? Data()[...]
        let header = String(decoding: headerBytes, as: UTF8.self)
        let expected = signature.headerValue(for: signed)
        let accepted = (try? signature.verify(header: header, body: signed)) != nil
        // What Meta sends, modulo the hex case and HTTP's optional whitespace, and nothing else.
        let trimmed = header.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        let matches = trimmed.hasPrefix("sha256=") && trimmed.lowercased() == expected
        if accepted != matches {
            fail("verify(header: \(header.debugDescription)) is \(accepted), expected \(matches) (signature \(expected))")
        }
    default:
        let query = String(decoding: body, as: UTF8.self)
        guard let items = URLComponents(string: "https://jadwal.example/webhook?" + query)?.queryItems else { return 0 }
        for token in ["", "fuzz-verify-token"] {
            switch CloudAPIVerification(queryItems: items, verifyToken: token) {
            case .accept(let challenge):
                guard !token.isEmpty, !challenge.isEmpty else { fail("a handshake was accepted without a token or challenge") }
            case .refuse(let refusal):
                _ = refusal.description
            }
        }
    }
    return 0
}
