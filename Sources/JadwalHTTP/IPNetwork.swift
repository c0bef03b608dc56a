import Foundation

/// An address range in CIDR form ("10.0.0.0/8", "::1/128", or one address): the proxies whose
/// `X-Forwarded-For` the server believes.
package struct IPNetwork: Sendable, Equatable, CustomStringConvertible {
    let bytes: [UInt8]
    let prefixLength: Int

    package static let loopback: [IPNetwork] = ["127.0.0.0/8", "::1/128"].compactMap(IPNetwork.init)

    package init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let bytes = Self.bytes(of: String(parts[0])) else { return nil }
        let length: Int
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...bytes.count * 8).contains(given) else { return nil }
            length = given
        } else {
            length = bytes.count * 8
        }
        self.bytes = bytes
        prefixLength = length
    }

    package var description: String {
        let address = bytes.count == 4
            ? bytes.map(String.init).joined(separator: ".")
            : stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":")
        return "\(address)/\(prefixLength)"
    }

    package func contains(_ address: String) -> Bool {
        guard let other = Self.bytes(of: address), other.count == bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(bytes, other) where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            guard mine & mask == theirs & mask else { return false }
            remaining -= bits
        }
        return true
    }

    /// The address's bytes: 4 for IPv4 (an IPv4-mapped IPv6 address too), 16 for IPv6.
    static func bytes(of text: String) -> [UInt8]? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var v4 = in_addr()
        if inet_pton(AF_INET, trimmed, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, trimmed, &v6) == 1 else { return nil }
        let raw = withUnsafeBytes(of: &v6) { Array($0) }
        if raw[0..<10].allSatisfy({ $0 == 0 }), raw[10] == 0xFF, raw[11] == 0xFF { return Array(raw[12...]) }
        return raw
    }
}

extension Array where Element == IPNetwork {
    package func containsAddress(_ address: String?) -> Bool {
        guard let address else { return false }
        return contains { $0.contains(address) }
    }
}
