import JadwalCore
/// Device tokens as APNs takes them in the request path: hex. Today's tokens are 32 bytes (64
/// hex digits); Apple has said they may grow, so only a floor and a generous ceiling are fixed.
public enum APNsDeviceToken {
    public static let minimumHexDigits = 64
    public static let maximumHexDigits = 200

    /// The token in lowercase hex, or nil when it cannot be a device token. Spaces and the angle
    /// brackets of an old `NSData` description are dropped, as apps have been known to send those.
    public static func normalized(_ text: String) -> String? {
        let hex = text.lowercased().filter { $0 != " " && $0 != "<" && $0 != ">" }
        guard (minimumHexDigits...maximumHexDigits).contains(hex.utf8.count), hex.utf8.count % 2 == 0,
              hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        return hex
    }
}
