import Foundation

/// A new item's UID and the object name it is stored under (`<uuid>@jadwal`, `<uuid>.ics`), made
/// by one rule for every front door that creates items: the API, the web app and Core's own
/// writers. A CalDAV client chooses its own names; items read from chats and routines derive
/// theirs from their UID the same way (`name(forUID:)`).
public struct ObjectIdentity: Sendable, Equatable {
    public let uid: String
    public let name: String

    /// A fresh identity from the injected random source.
    public static func new(random: RandomSource) -> ObjectIdentity {
        let id = random.uuid().uuidString.lowercased()
        return ObjectIdentity(uid: id + "@jadwal", name: id + ".ics")
    }

    /// The object name for a UID: the part before any "@", with `.ics`.
    public static func name(forUID uid: String) -> String {
        String(uid.prefix { $0 != "@" }) + ".ics"
    }
}
