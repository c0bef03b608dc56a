#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 (4 bytes) or IPv6 (16 bytes) address, as the fetch rules judge it.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Parses `192.0.2.1` or `2001:db8::1` (no brackets, no zone).
    public init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: v6) { Array($0) }
            return
        }
        return nil
    }

    public var isV4: Bool { bytes.count == 4 }

    /// The IPv4 address an IPv6 one carries (`::ffff:a.b.c.d` mapped, `64:ff9b::/96` NAT64).
    var embeddedV4: IPAddress? {
        guard bytes.count == 16 else { return nil }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return IPAddress(bytes: Array(bytes[12...])) }
        if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return IPAddress(bytes: Array(bytes[12...])) }
        return nil
    }

    /// Reachable on the public internet: none of the special-purpose ranges of RFC 6890 and its
    /// successors (loopback, private, link-local, CGNAT, documentation, benchmarking, multicast,
    /// reserved, unique-local).
    public var isPublic: Bool {
        if let v4 = embeddedV4 { return v4.isPublic }
        return !Self.special.contains { $0.contains(self) }
    }

    static let special: [IPRange] = [
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24",
        "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
        "::/128", "::1/128", "100::/64", "2001:db8::/32", "2001::/23", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
    ].compactMap { IPRange($0) }

    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written: UnsafePointer<CChar>? = bytes.withUnsafeBytes { raw in
            inet_ntop(bytes.count == 4 ? AF_INET : AF_INET6, raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// An address range in CIDR form (`10.0.0.0/8`, `fd00::/8`), for the operator's allow-list.
public struct IPRange: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let network: IPAddress
    public let prefix: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let address = IPAddress(parts[0]) else { return nil }
        let bits = address.bytes.count * 8
        let prefix = parts.count == 2 ? Int(parts[1]) : bits
        guard let prefix, (0...bits).contains(prefix) else { return nil }
        network = address
        self.prefix = prefix
    }

    /// For the fixed tables above only: a literal that does not parse is a programming error
    /// caught by the tests, and maps to an empty range rather than a crash.
    public init(stringLiteral value: String) {
        self = IPRange(value) ?? IPRange(network: IPAddress(bytes: [255, 255, 255, 255]), prefix: 32)
    }

    init(network: IPAddress, prefix: Int) {
        self.network = network
        self.prefix = prefix
    }

    public func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == network.bytes.count else { return false }
        var remaining = prefix
        for index in network.bytes.indices where remaining > 0 {
            let take = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - take))
            if address.bytes[index] & mask != network.bytes[index] & mask { return false }
            remaining -= take
        }
        return true
    }

    public var description: String { "\(network)/\(prefix)" }
}
