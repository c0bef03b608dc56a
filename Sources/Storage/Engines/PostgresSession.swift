import Logging
import NIOCore
import PostgresKit
import PostgresNIO
import SQLKit

/// One leased PostgreSQL connection as SQLKit sees it, whose queries fail at once when the
/// connection has closed (the database stopped) instead of waiting for ever.
///
/// PostgresNIO writes a query into the connection's channel without looking whether it is still
/// open; written after the channel closed, the query is dropped and its answer never comes. So a
/// transaction that lost its connection half-way hung on its next statement (or its ROLLBACK),
/// and with it the request and the server's graceful stop. Each query here is handed over on the
/// connection's event loop after checking the channel there: the channel closes on that same
/// loop, so an open channel still has the handler that answers (or fails) the query.
struct PostgresSession: SQLDatabase {
    let connection: PostgresConnection
    private let base: any SQLDatabase

    init(connection: PostgresConnection) {
        self.connection = connection
        self.base = connection.sql()
    }

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { connection.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void> {
        let (base, connection) = (self.base, self.connection)
        return connection.eventLoop.flatSubmit {
            guard !connection.isClosed else {
                return connection.eventLoop.makeFailedFuture(PostgresConnectionClosed())
            }
            return base.execute(sql: query, onRow)
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) async throws {
        try await execute(sql: query, onRow).get()
    }

    /// Runs `body` in a transaction. A failed body is rolled back unless the connection is gone
    /// (the server drops an open transaction with its connection). A failed COMMIT is
    /// `PostgresCommitUnknown`: whether it took cannot be known.
    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await raw("BEGIN").run()
        let result: T
        do {
            result = try await body(self)
        } catch {
            if !connection.isClosed { try? await raw("ROLLBACK").run() }
            throw error
        }
        do {
            try await raw("COMMIT").run()
        } catch {
            throw PostgresCommitUnknown(underlying: error)
        }
        return result
    }
}

/// A query asked of a connection that had closed already: nothing was sent.
struct PostgresConnectionClosed: Error, CustomStringConvertible {
    var description: String { "the connection to PostgreSQL has closed" }
}

/// COMMIT was sent and no answer came back (the connection was cut, or the server refused it):
/// the transaction may or may not have taken. Not `StoreUnavailable`: telling a client "nothing
/// was done, try again" could be untrue.
struct PostgresCommitUnknown: Error, CustomStringConvertible {
    let underlying: any Error
    var description: String { "COMMIT failed, the outcome is unknown: \(String(reflecting: underlying))" }
}
