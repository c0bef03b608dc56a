import Foundation

/// Which database Jadwal uses: an SQLite file (the default, nothing to install) or PostgreSQL.
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    public struct PostgresLocation: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var username: String
        public var password: String?
        public var database: String
        /// `sslmode=require` (or `verify-full`) asks for TLS; anything else connects in the clear,
        /// which is right for loopback and a private network.
        public var requireTLS: Bool
    }

    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case unsupportedScheme(String)
        case missingHost
        case missingUser
        case invalidPort

        public var description: String {
            switch self {
            case .unsupportedScheme(let scheme):
                "database URL scheme '\(scheme)' is not supported: use postgres://user:password@host:port/database or leave it unset for SQLite"
            case .missingHost: "the database URL names no host"
            case .missingUser: "the database URL names no user (postgres://user:password@host/database)"
            case .invalidPort: "the database URL has an invalid port"
            }
        }
    }

    /// Reads `postgres://user:password@host:5432/db?sslmode=require`.
    public init(url: String) throws(Problem) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw .unsupportedScheme(url.prefix { $0 != ":" }.description)
        }
        guard scheme == "postgres" || scheme == "postgresql" else { throw .unsupportedScheme(scheme) }
        guard let host = components.host, !host.isEmpty else { throw .missingHost }
        guard let user = components.user, !user.isEmpty else { throw .missingUser }
        if let port = components.port, !(1...65535).contains(port) { throw .invalidPort }
        let database = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let sslmode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        self = .postgres(PostgresLocation(
            host: host, port: components.port ?? 5432, username: user.removingPercentEncoding ?? user,
            password: components.password?.removingPercentEncoding ?? components.password,
            database: database.isEmpty ? user : database,
            requireTLS: ["require", "verify-ca", "verify-full"].contains(sslmode)
        ))
    }

    /// For logs: never includes the password.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let pg): "postgres://\(pg.username)@\(pg.host):\(pg.port)/\(pg.database)"
        }
    }
}
