import Crypto
import Foundation

/// Checks that a WhatsApp Cloud API webhook delivery was signed by Meta: the `X-Hub-Signature-256`
/// header is `sha256=` and the lowercase hex HMAC-SHA256 of the raw body, keyed with the app's
/// App Secret (Graph API Webhooks, "Validating payloads").
///
/// Verify the bytes exactly as received, before decoding: Meta signs its escaped form
/// (`\u0628…`), and any re-serialisation changes the bytes.
public struct CloudAPISignature: Sendable {
    /// The header Meta puts the signature in.
    public static let headerName = "X-Hub-Signature-256"

    private static let prefix = Array("sha256=".utf8)
    private static let hexDigitCount = SHA256.byteCount * 2

    private let key: SymmetricKey

    /// - Parameter appSecret: the App Secret of the Meta app (not the verify token, not an access token).
    public init(appSecret: String) {
        key = SymmetricKey(data: Data(appSecret.utf8))
    }

    /// Throws unless `header` is a well-formed signature of `body`.
    ///
    /// - Parameters:
    ///   - header: the `X-Hub-Signature-256` value as received, nil when the request had none.
    ///   - body: the raw request body.
    public func verify(header: String?, body: some DataProtocol) throws(CloudAPISignatureError) {
        let mac = try Self.decode(header)
        // swift-crypto compares in constant time, so the time taken tells nothing about how
        // many leading bytes of a forged signature were right.
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: body, using: key) else {
            throw .mismatch
        }
    }

    /// The header value Meta would send for `body`: for tests and for tools that replay deliveries.
    public func headerValue(for body: some DataProtocol) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: body, using: key)
        return "sha256=" + mac.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 0x10 ? "0" + hex : hex
        }.joined()
    }

    /// The 32 signature bytes of a header value. Upper-case hex is accepted too: it names the
    /// same bytes, and refusing it would only make a proxy that re-cases headers look like an attack.
    static func decode(_ header: String?) throws(CloudAPISignatureError) -> [UInt8] {
        guard let header else { throw .missingHeader }
        // HTTP allows optional whitespace around a field value.
        let value = Array(header.utf8).trimmingSpaces()
        guard !value.isEmpty else { throw .missingHeader }
        guard value.starts(with: prefix) else { throw .malformedHeader(.missingPrefix) }
        let hex = value.dropFirst(prefix.count)
        guard hex.count == hexDigitCount else {
            throw .malformedHeader(.wrongLength(count: String(decoding: hex, as: UTF8.self).count))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(SHA256.byteCount)
        var offset = 0
        var high: UInt8 = 0
        for character in hex {
            guard let nibble = Self.nibble(character) else { throw .malformedHeader(.notHex(offset: offset)) }
            if offset % 2 == 0 {
                high = nibble
            } else {
                bytes.append(high << 4 | nibble)
            }
            offset += 1
        }
        return bytes
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

private extension Array where Element == UInt8 {
    func trimmingSpaces() -> ArraySlice<UInt8> {
        var slice = self[...]
        while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
        return slice
    }
}
