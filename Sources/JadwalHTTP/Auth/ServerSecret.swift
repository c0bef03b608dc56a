import Crypto
import Foundation
import JadwalCore

/// The server's one root secret. Every key is derived from it (HKDF with a purpose label), so
/// an operator running several instances shares one value (`JADWAL_SECRET_KEY`) and nothing else.
public struct ServerSecret: Sendable {
    package let root: SymmetricKey

    public enum Problem: Error, CustomStringConvertible {
        case invalidEnvironmentValue
        case unreadableFile(String, reason: String)
        case wrongLength(String)

        public var description: String {
            switch self {
            case .invalidEnvironmentValue:
                "JADWAL_SECRET_KEY must be 32 bytes in base64 (make one with: openssl rand -base64 32)"
            case .unreadableFile(let path, let reason): "cannot read or create the secret key file \(path): \(reason)"
            case .wrongLength(let path): "the secret key file \(path) must hold exactly 32 bytes; move it away to have a new one made"
            }
        }
    }

    public init(rootKey: SymmetricKey) { root = rootKey }

    /// From a base64 value (`JADWAL_SECRET_KEY`).
    public init(base64: String) throws {
        guard let data = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)), data.count == 32 else {
            throw Problem.invalidEnvironmentValue
        }
        root = SymmetricKey(data: data)
    }

    /// From `path`, creating it with 32 random bytes and mode 0600 on first start.
    public static func loadOrCreate(at path: String, random: RandomSource = .system) throws -> ServerSecret {
        do throws(KeyFile.Failure) {
            return ServerSecret(rootKey: try KeyFile.loadOrCreate(at: path, byteCount: 32, random: random))
        } catch .unreadable(let reason) {
            throw Problem.unreadableFile(path, reason: reason)
        } catch {
            throw Problem.wrongLength(path)
        }
    }

    package func derivedKey(purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: root, info: Data("jadwal \(purpose)".utf8), outputByteCount: 32)
    }
}

/// Seals small secrets that must wait in the database (a magic link in a queued email job) so a
/// copy of the database alone cannot use them.
package struct PayloadSealer: Sendable {
    package let key: SymmetricKey

    package init(secret: ServerSecret) { key = secret.derivedKey(purpose: "sealed payloads v1") }

    package func seal(_ plaintext: Data) throws -> String {
        guard let combined = try AES.GCM.seal(plaintext, using: key).combined else { throw CryptoKitError.incorrectParameterSize }
        return combined.base64EncodedString()
    }

    package func open(_ sealed: String) throws -> Data {
        guard let data = Data(base64Encoded: sealed) else { throw CryptoKitError.incorrectParameterSize }
        return try AES.GCM.open(AES.GCM.SealedBox(combined: data), using: key)
    }
}
