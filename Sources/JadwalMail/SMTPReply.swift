import JadwalCore
import NIOCore

/// One SMTP reply: a three-digit code and one or more text lines ("250-first", "250 last").
package struct SMTPReply: Sendable, Equatable {
    package var code: Int
    package var lines: [String]
    /// Bytes had already arrived after this reply when it was parsed. After "220" to STARTTLS
    /// that means someone injected plain-text data meant to be read as if it came over TLS.
    package var followedByBufferedData = false

    package var text: String { lines.joined(separator: " / ") }
    package var isPositive: Bool { (200..<400).contains(code) }
    package var isPermanentFailure: Bool { code >= 500 }
}

/// Assembles reply lines into replies (RFC 5321 §4.2.1). Pure, so it is unit-tested directly.
package struct SMTPReplyParser {
    package static let maxLinesPerReply = 1000

    private var pending: [String] = []
    private var pendingCode: Int?

    /// Feeds one line without its line end. Returns the reply when `line` completes one.
    package mutating func feed(_ line: String) throws(SMTPError) -> SMTPReply? {
        let bytes = Array(line.utf8)
        guard bytes.count >= 3,
              bytes[0...2].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let code = Int(String(decoding: bytes[0...2], as: UTF8.self)),
              (200...599).contains(code)
        else {
            throw SMTPError(code: nil, message: "malformed reply line from server: \(line.prefix(80).debugDescription)", isPermanent: false)
        }
        if let pendingCode, pendingCode != code {
            throw SMTPError(code: nil, message: "reply lines with different codes (\(pendingCode), \(code))", isPermanent: false)
        }
        let separator: UInt8? = bytes.count > 3 ? bytes[3] : nil
        let text = bytes.count > 4 ? String(decoding: bytes[4...], as: UTF8.self) : ""
        switch separator {
        case UInt8(ascii: "-"):
            guard pending.count < Self.maxLinesPerReply else {
                throw SMTPError(code: nil, message: "reply longer than \(Self.maxLinesPerReply) lines", isPermanent: false)
            }
            pendingCode = code
            pending.append(text)
            return nil
        case nil, UInt8(ascii: " "):
            let reply = SMTPReply(code: code, lines: pending + [text])
            pending = []
            pendingCode = nil
            return reply
        default:
            throw SMTPError(code: nil, message: "malformed reply line from server: \(line.prefix(80).debugDescription)", isPermanent: false)
        }
    }
}

/// Splits inbound bytes into lines, assembles replies and hands them to an AsyncThrowingStream.
/// Lives on the channel's event loop; the stream ends when the connection does.
package final class SMTPReplyHandler: ChannelInboundHandler {
    package typealias InboundIn = ByteBuffer

    package static let maxLineLength = 8192

    private let continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation
    private var buffer = ByteBuffer()
    private var parser = SMTPReplyParser()

    package init(continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation) {
        self.continuation = continuation
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        buffer.writeBuffer(&incoming)
        do {
            while let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
                let length = newline - buffer.readerIndex
                guard var lineBytes = buffer.readBytes(length: length) else { break }
                buffer.moveReaderIndex(forwardBy: 1)
                if lineBytes.last == UInt8(ascii: "\r") { lineBytes.removeLast() }
                if var reply = try parser.feed(String(decoding: lineBytes, as: UTF8.self)) {
                    reply.followedByBufferedData = buffer.readableBytes > 0
                    continuation.yield(reply)
                }
            }
            guard buffer.readableBytes <= Self.maxLineLength else {
                throw SMTPError(code: nil, message: "reply line longer than \(Self.maxLineLength) bytes", isPermanent: false)
            }
            buffer.discardReadBytes()
        } catch {
            continuation.finish(throwing: error)
            context.close(promise: nil)
        }
    }

    package func channelInactive(context: ChannelHandlerContext) {
        continuation.finish(throwing: SMTPError(code: nil, message: "the server closed the connection", isPermanent: false))
        context.fireChannelInactive()
    }

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        continuation.finish(throwing: error)
        context.close(promise: nil)
    }
}
