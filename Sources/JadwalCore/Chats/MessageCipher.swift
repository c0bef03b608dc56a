import Crypto
import Foundation

/// Message text as stored: AES-256-GCM ciphertext with its tag, the nonce, and which key sealed it.
public struct SealedText: Sendable, Hashable {
    /// Ciphertext followed by the 16-byte tag.
    public var ciphertext: Data
    /// The 12-byte GCM nonce, random per message.
    public var nonce: Data
    /// `MessageCipher.keyID` of the key that sealed it.
    public var keyID: String

    public init(ciphertext: Data, nonce: Data, keyID: String) {
        self.ciphertext = ciphertext
        self.nonce = nonce
        self.keyID = keyID
    }
}

/// Encrypts chat message text at rest (AES-256-GCM). The key comes from configuration
/// (`JADWAL_CHAT_KEY`) or the data directory's key file; a copy of the database alone reveals no
/// message. Each text is bound to the message it belongs to (its conversation and message id as
/// associated data), so ciphertexts cannot be swapped between rows unnoticed.
public struct MessageCipher: Sendable {
    private let key: SymmetricKey
    /// A short public fingerprint of the key, stored beside each ciphertext, so a changed key is
    /// reported as such instead of as corrupt data.
    public let keyID: String

    public static let keyByteCount = 32

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The configured value is not 32 bytes of base64.
        case invalidKey
        /// The text was sealed with another key than the configured one.
        case wrongKey(sealedWith: String, configured: String)
        /// The key matches but the ciphertext, nonce or associated data were altered.
        case tampered
        /// Decrypted bytes that are not UTF-8 (never written by Jadwal).
        case notText

        public var description: String {
            switch self {
            case .invalidKey:
                "JADWAL_CHAT_KEY must be 32 bytes in base64 (make one with: openssl rand -base64 32)"
            case .wrongKey(let sealedWith, let configured):
                "chat messages in the database were encrypted with chat key \(sealedWith), but the configured chat key is \(configured): "
                    + "set JADWAL_CHAT_KEY (or the data directory's chat.key) back to the key they were written with"
            case .tampered:
                "a stored chat message failed its integrity check (altered or corrupt ciphertext)"
            case .notText:
                "a stored chat message decrypted to bytes that are not UTF-8 text"
            }
        }
    }

    public init(key: SymmetricKey) {
        precondition(key.bitCount == Self.keyByteCount * 8, "chat keys are 256-bit")
        self.key = key
        let fingerprint = HMAC<SHA256>.authenticationCode(for: Data("jadwal chat key id v1".utf8), using: key)
        keyID = Data(fingerprint).prefix(8).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// From the base64 of 32 bytes (`JADWAL_CHAT_KEY`).
    public init(base64: String) throws(Problem) {
        guard let data = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == Self.keyByteCount else {
            throw .invalidKey
        }
        self.init(key: SymmetricKey(data: data))
    }

    /// Seals `text` for the message `messageID` of `conversationID`.
    public func seal(_ text: String, conversationID: UUID, messageID: String) -> SealedText {
        let nonce = AES.GCM.Nonce()
        // Sealing with a fresh random nonce and a 256-bit key cannot fail.
        let box = try! AES.GCM.seal(Data(text.utf8), using: key, nonce: nonce, authenticating: Self.associatedData(conversationID, messageID))
        // Zero-based bytes: the box's parts are slices of one buffer.
        return SealedText(ciphertext: Data(Array(box.ciphertext) + Array(box.tag)), nonce: Data(Array(nonce)), keyID: keyID)
    }

    /// The text of a sealed message, or why it cannot be read.
    public func open(_ sealed: SealedText, conversationID: UUID, messageID: String) throws(Problem) -> String {
        guard sealed.keyID == keyID else { throw .wrongKey(sealedWith: sealed.keyID, configured: keyID) }
        guard sealed.ciphertext.count >= 16, let nonce = try? AES.GCM.Nonce(data: sealed.nonce) else { throw .tampered }
        let plaintext: Data
        do {
            let box = try AES.GCM.SealedBox(nonce: nonce, ciphertext: sealed.ciphertext.dropLast(16), tag: sealed.ciphertext.suffix(16))
            plaintext = try AES.GCM.open(box, using: key, authenticating: Self.associatedData(conversationID, messageID))
        } catch {
            throw .tampered
        }
        guard let text = String(validating: plaintext, as: UTF8.self) else { throw .notText }
        return text
    }

    /// Seals bytes that are not a message (a WhatsApp device store), bound to `purpose`.
    public func seal(data: Data, purpose: String) -> SealedText {
        let nonce = AES.GCM.Nonce()
        // As above: a fresh nonce and a 256-bit key cannot fail.
        let box = try! AES.GCM.seal(data, using: key, nonce: nonce, authenticating: Self.associatedData(purpose: purpose))
        return SealedText(ciphertext: Data(Array(box.ciphertext) + Array(box.tag)), nonce: Data(Array(nonce)), keyID: keyID)
    }

    /// The bytes sealed for `purpose`, or why they cannot be read.
    public func open(data sealed: SealedText, purpose: String) throws(Problem) -> Data {
        guard sealed.keyID == keyID else { throw .wrongKey(sealedWith: sealed.keyID, configured: keyID) }
        guard sealed.ciphertext.count >= 16, let nonce = try? AES.GCM.Nonce(data: sealed.nonce) else { throw .tampered }
        do {
            let box = try AES.GCM.SealedBox(nonce: nonce, ciphertext: sealed.ciphertext.dropLast(16), tag: sealed.ciphertext.suffix(16))
            return try AES.GCM.open(box, using: key, authenticating: Self.associatedData(purpose: purpose))
        } catch {
            throw .tampered
        }
    }

    /// Refuses this key when the database holds message text, WhatsApp sessions or connected
    /// calendars' passwords sealed with another: starting would only fail later, one
    /// conversation or linked account at a time.
    public func check(against store: any Store) async throws {
        let keyIDs = try await store.read { tx in try await tx.chatMessageKeyIDs() + tx.whatsAppSessionKeyIDs() + tx.caldavPasswordKeyIDs() }
        if let other = keyIDs.first(where: { $0 != keyID }) {
            throw Problem.wrongKey(sealedWith: other, configured: keyID)
        }
    }

    /// Not a message's associated data: sealed data can never be opened as a message, or back.
    private static func associatedData(purpose: String) -> Data {
        Data("jadwal sealed data v1\u{1F}\(purpose)".utf8)
    }

    private static func associatedData(_ conversationID: UUID, _ messageID: String) -> Data {
        Data("jadwal chat message v1\u{1F}\(conversationID.uuidString.lowercased())\u{1F}\(messageID)".utf8)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
