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
