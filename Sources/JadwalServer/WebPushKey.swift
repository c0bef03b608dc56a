import Crypto
import Foundation
import JadwalCore
import JadwalHTTP
import JadwalPush

/// Where the VAPID key that signs Web Push comes from: `JADWAL_VAPID_PRIVATE_KEY` (what several
/// instances on one PostgreSQL database must share: browsers subscribe with its public half),
/// else `<data dir>/vapid.key`, 32 random bytes made with mode 0600 on first start, beside the
/// server's other keys.
public enum WebPushKey {
    public static func load(_ configuration: ServerConfiguration, random: RandomSource) throws -> P256.Signing.PrivateKey {
        if let given = try ConfigurationValue.vapidKey(configuration.vapidPrivateKey) { return given }
        let path = configuration.vapidKeyPath
        let bytes: SymmetricKey
        do throws(KeyFile.Failure) {
            bytes = try KeyFile.loadOrCreate(at: path, byteCount: 32, random: random)
        } catch .unreadable(let reason) {
            throw ServerStartupError.configuration("cannot read or create the Web Push key file \(path): \(reason)")
        } catch {
            throw ServerStartupError.configuration(
                "the Web Push key file \(path) must hold exactly 32 bytes; restore it from a backup, or move it away to have a new one made (browsers then subscribe again)")
        }
        do {
            return try bytes.withUnsafeBytes { try P256.Signing.PrivateKey(rawRepresentation: Data($0)) }
        } catch {
            // 32 random bytes fail only if they exceed the curve's order: about one start in 2^32.
            throw ServerStartupError.configuration("the Web Push key file \(path) is not a P-256 key; move it away to have a new one made")
        }
    }

    /// `JADWAL_VAPID_SUBJECT`, else the mail sender as a `mailto:` address.
    public static func subject(_ configuration: ServerConfiguration) throws -> String {
        try ConfigurationValue.vapidSubject(configuration.vapidSubject) ?? "mailto:" + configuration.mailFrom.email
    }
}
