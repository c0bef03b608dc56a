import Crypto
import Foundation
import JadwalCore
import Testing

@Suite("Chat text encrypted at rest")
struct MessageCipherTests {
    static let key = MessageCipher(key: SymmetricKey(data: Data(repeating: 1, count: 32)))
    static let conversation = UUID()

    @Test("sealed text opens with the same key and message, and never shows the words")
    func roundTrip() throws {
        let text = "Dinner tomorrow at 8pm at Nando's? عشاء بكرة"
        let sealed = Self.key.seal(text, conversationID: Self.conversation, messageID: "m1")
        #expect(try Self.key.open(sealed, conversationID: Self.conversation, messageID: "m1") == text)
        #expect(sealed.nonce.count == 12 && sealed.keyID == Self.key.keyID && sealed.keyID.count == 16)
        for form in [sealed.ciphertext, Data(sealed.ciphertext.base64EncodedString().utf8)] {
            #expect(form.range(of: Data("Nando".utf8)) == nil && form.range(of: Data("عشاء".utf8)) == nil)
        }
        let again = Self.key.seal(text, conversationID: Self.conversation, messageID: "m1")
        #expect(again.nonce != sealed.nonce && again.ciphertext != sealed.ciphertext, "a fresh nonce every time")
    }

    @Test("another key is reported as a key mismatch, naming both keys; altered data as tampering")
    func wrongKeyAndTampering() throws {
        let sealed = Self.key.seal("see you at 8", conversationID: Self.conversation, messageID: "m1")
        let other = MessageCipher(key: SymmetricKey(data: Data(repeating: 2, count: 32)))
        #expect(other.keyID != Self.key.keyID)
        #expect(throws: MessageCipher.Problem.wrongKey(sealedWith: Self.key.keyID, configured: other.keyID)) {
            try other.open(sealed, conversationID: Self.conversation, messageID: "m1")
        }
        #expect(MessageCipher.Problem.wrongKey(sealedWith: "a", configured: "b").description.contains("JADWAL_CHAT_KEY"))

        // Bound to its message: moved to another row, it does not open.
        #expect(throws: MessageCipher.Problem.tampered) { try Self.key.open(sealed, conversationID: Self.conversation, messageID: "m2") }
        #expect(throws: MessageCipher.Problem.tampered) { try Self.key.open(sealed, conversationID: UUID(), messageID: "m1") }
        var flipped = sealed
        flipped.ciphertext[flipped.ciphertext.startIndex] ^= 1
        #expect(throws: MessageCipher.Problem.tampered) { try Self.key.open(flipped, conversationID: Self.conversation, messageID: "m1") }
        var short = sealed
        short.nonce = Data([1, 2, 3])
        #expect(throws: MessageCipher.Problem.tampered) { try Self.key.open(short, conversationID: Self.conversation, messageID: "m1") }
    }

    @Test("a configured key must be 32 bytes of base64")
    func configuredKey() throws {
        let good = Data(repeating: 9, count: 32).base64EncodedString()
        #expect(try MessageCipher(base64: good).keyID == MessageCipher(key: SymmetricKey(data: Data(repeating: 9, count: 32))).keyID)
        for bad in ["", "not base64!", Data(repeating: 9, count: 16).base64EncodedString()] {
            #expect(throws: MessageCipher.Problem.invalidKey) { try MessageCipher(base64: bad) }
        }
    }
}
