import Foundation

/// Where "now" comes from. Injected so token expiry, rate limits and job scheduling
/// are testable with a fixed or advancing clock instead of `Date()` deep inside.
public struct Clock: Sendable {
    private let read: @Sendable () -> Date

    public init(_ read: @escaping @Sendable () -> Date) { self.read = read }

    public var now: Date { read() }

    public static let system = Clock { Date() }
}

/// Randomness for secrets. Injected for the same reason as `Clock`; the live value is
/// the operating system's CSPRNG.
public struct RandomSource: Sendable {
    private let fill: @Sendable (Int) -> [UInt8]

    public init(_ fill: @escaping @Sendable (Int) -> [UInt8]) { self.fill = fill }

    public func bytes(_ count: Int) -> [UInt8] { fill(count) }

    /// A version-4 UUID from this source's bytes: ids come from the injected source like
    /// secrets do, so a test with a fixed source gets the same ids every run.
    public func uuid() -> UUID {
        var raw = bytes(16)
        if raw.count < 16 { raw += [UInt8](repeating: 0, count: 16 - raw.count) }
        raw[6] = (raw[6] & 0x0F) | 0x40  // version 4
        raw[8] = (raw[8] & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                           raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))
    }

    public static let system = RandomSource { count in
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

extension Date {
    /// Milliseconds since 1970: how instants are stored, identically on SQLite and PostgreSQL.
    public var unixMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    public init(unixMilliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(unixMilliseconds) / 1000)
    }
}
