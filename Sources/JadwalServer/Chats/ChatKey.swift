import Crypto
import Foundation
import JadwalAPI
import JadwalCalDAV
import JadwalCore
import JadwalHTTP
import JadwalJobs
import JadwalLLM
import JadwalMail
import JadwalPush
import JadwalWeb

/// Where the key that encrypts chat messages comes from: `JADWAL_CHAT_KEY` (base64 of 32 bytes;
/// what several instances on one PostgreSQL database must share), else `<data dir>/chat.key`,
/// created with mode 0600 on first start.
public enum ChatKey {
    public enum Problem: Error, CustomStringConvertible {
        case invalidValue
        case unreadableFile(String, reason: String)
        case wrongLength(String)

        public var description: String {
            switch self {
            case .invalidValue:
                "JADWAL_CHAT_KEY must be 32 bytes in base64 (make one with: openssl rand -base64 32)"
            case .unreadableFile(let path, let reason):
                "cannot read or create the chat key file \(path): \(reason)"
            case .wrongLength(let path):
                "the chat key file \(path) must hold exactly 32 bytes; restore it from a backup (messages sealed with it cannot be read without it)"
            }
        }
    }

    /// The cipher the configuration names.
    public static func cipher(_ configuration: ServerConfiguration, random: RandomSource = .system) throws -> MessageCipher {
        if let value = configuration.chatKey {
            do {
                return try MessageCipher(base64: value)
            } catch {
                throw Problem.invalidValue
            }
        }
        return try loadOrCreate(at: configuration.chatKeyPath, random: random)
    }

    /// From `path`, creating it with 32 random bytes and mode 0600 when it does not exist.
    public static func loadOrCreate(at path: String, random: RandomSource = .system) throws -> MessageCipher {
        do throws(KeyFile.Failure) {
            return MessageCipher(key: try KeyFile.loadOrCreate(at: path, byteCount: MessageCipher.keyByteCount, random: random))
        } catch .unreadable(let reason) {
            throw Problem.unreadableFile(path, reason: reason)
        } catch {
            throw Problem.wrongLength(path)
        }
    }
}
