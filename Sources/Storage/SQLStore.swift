import Foundation
import JadwalCore
import Logging
import NIOSSL
import PostgresKit
import PostgresNIO
import SQLKit
import SQLiteKit
import SQLiteNIO
import Synchronization
import _ConnectionPoolModule

/// The one SQL implementation of `Store`, over SQLite or PostgreSQL. Everything above the
/// engine-specific connection handling goes through SQLKit, so both engines run the same queries.
public final class SQLStore: Store {
    private enum Engine: Sendable {
        case sqlite(writer: SQLiteConnectionPool, readers: SQLiteConnectionPool, writerThread: SQLiteWriterThread)
        case postgres(PostgresClient, runner: Task<Void, Never>)
    }

    private let engine: Engine
    private let logger: Logger
    private let viewObservers = Mutex<[@Sendable (CalendarViewChanges) -> Void]>([])
    /// Names this process in its broadcasts, so it does not hear its own twice.
    private let instance = UUID()
    public let location: DatabaseLocation
    public let accountQuota: AccountQuota
    /// How long a transaction may wait for a connection, on either engine (nil: no limit).
    private let waitLimit: Duration?
    /// PostgreSQL: found gone (a wait for a connection ran out, a connection was lost, or its port
    /// refused one), and no connection has come since.
    private let unreachable = Mutex(false)
    /// PostgreSQL: asked by a request that has waited a second for a connection.
    private let reachability: PostgresReachability?

    var sqlEngine: SQLEngine {
        switch engine {
        case .sqlite: .sqlite
        case .postgres: .postgres
        }
    }

    /// Opens the database; does not migrate (see `migrate()`). `waitLimit`: how long a
    /// transaction may wait for an SQLite connection before `StoreUnavailable` (nil: no limit).
    /// `accountQuota`: what each account may store (`AccountQuota`).
    public init(location: DatabaseLocation, waitLimit: Duration? = .seconds(10), accountQuota: AccountQuota = AccountQuota(), logger: Logger) throws {
        self.location = location
        self.accountQuota = accountQuota
        self.waitLimit = waitLimit
        self.logger = logger
        switch location {
        case .sqlite(let path):
            reachability = nil
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            do {
                try PrivateFiles.createDirectory(directory)
                try PrivateFiles.createEmptyFileIfMissing(path)
            } catch {
                throw StorageError.cannotCreateDirectory(directory)
            }
            let writerThread = SQLiteWriterThread()
            engine = .sqlite(
                writer: SQLiteConnectionPool(path: path, size: 1, threadPool: writerThread.pool, leaseTimeout: waitLimit, logger: logger),
                readers: SQLiteConnectionPool(path: path, size: 4, leaseTimeout: waitLimit, logger: logger),
                writerThread: writerThread
            )
        case .postgres(let pg):
            var configuration = PostgresClient.Configuration(
                host: pg.host, port: pg.port, username: pg.username, password: pg.password, database: pg.database,
                tls: pg.requireTLS ? .require(.makeClientConfiguration()) : .disable
            )
            configuration.options.maximumConnections = 20
            let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
            // Started immediately: `run()` marks the client running before its first suspension,
            // so before this init returns. Started as a plain task, it often had not begun when
            // the first lease came (migrating at once), and PostgresNIO warned that "run() hasn't
            // been called yet" (20 times in one run of the test command).
            engine = .postgres(client, runner: Task.immediate { await client.run() })
            reachability = PostgresReachability(host: pg.host, port: pg.port)
        }
    }

    // MARK: Store

    public func transaction<T: Sendable>(_ body: @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        let recorder = ViewChangeRecorder()
        let broadcasts = sqlEngine == .postgres
        let result = try await withWriteDatabase { db in
            let result = try await body(SQLRepository(db: db, engine: self.sqlEngine, viewChanges: recorder))
            if broadcasts, let payload = ChangeBroadcast.payload(recorder.changes, from: self.instance) {
                // PostgreSQL delivers it to every listening instance when this commits, never
                // for a rollback, so the others hear exactly what this one's observers hear.
                try await db.raw("SELECT pg_notify(\(bind: ChangeBroadcast.channel), \(bind: payload))").run()
            }
            return result
        }
        // Committed: whoever shows these calendars is told (a rolled-back transaction threw above).
        tellObservers(recorder.changes)
        return result
    }

    private func tellObservers(_ changes: CalendarViewChanges) {
        if !changes.isEmpty { for observer in viewObservers.withLock({ $0 }) { observer(changes) } }
    }

    /// Calls `observer` after each committed transaction that changed what calendar views show
    /// or posted notifications (`CalendarViewChanges`), on the committing task: it should hand
    /// work off, not do it. On PostgreSQL, while `listenToOtherInstances` runs, the changes
    /// other instances commit reach it too.
    public func observeViewChanges(_ observer: @escaping @Sendable (CalendarViewChanges) -> Void) {
        viewObservers.withLock { $0.append(observer) }
    }

    /// On PostgreSQL, hands the changes other instances on the same database commit to this
    /// one's observers (`LISTEN`), until cancelled; on SQLite (one process) it returns at once.
    /// A lost connection is opened again after a pause: what was committed meanwhile is seen by
    /// the streams at their next keep-alive read.
    public func listenToOtherInstances() async {
        guard case .postgres(let client, _) = engine else { return }
        var pause: Duration = .milliseconds(250)
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: ChangeBroadcast.channel) { notifications in
                        pause = .milliseconds(250)
                        for try await notification in notifications {
                            guard let changes = ChangeBroadcast.changes(in: notification.payload, notFrom: self.instance) else { continue }
                            self.tellObservers(changes)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("not hearing other instances' changes; trying again", metadata: ["error": "\(error)", "in": "\(pause)"])
            }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(10))
        }
    }

    public func read<T: Sendable>(_ body: @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await withReadDatabase { db in try await body(SQLRepository(db: db, engine: self.sqlEngine)) }
    }

    public func checkReady() async throws {
        let version = try await schemaVersion
        if version > Migrations.latestVersion {
            throw StorageError.schemaNewerThanBinary(database: version, binary: Migrations.latestVersion)
        }
        if version < Migrations.latestVersion {
            throw StorageError.schemaBehind(database: version, binary: Migrations.latestVersion)
        }
    }

    public func shutdown() async throws {
        switch engine {
        case .sqlite(let writer, let readers, let writerThread):
            await writer.close()
            await readers.close()
            await writerThread.shutdown()
        case .postgres(_, let runner):
            runner.cancel()
            await runner.value
        }
    }

    // MARK: Schema

    /// Brings the schema up to this binary's version; returns what it applied ("version name").
    @discardableResult
    public func migrate(now: Date = Date()) async throws -> [String] {
        let engine = sqlEngine
        let applied = try await withWriteDatabase { db in
            if engine == .postgres {
                // Several instances may start at once; one migrates, the others wait and find nothing to do.
                try await db.raw("SELECT pg_advisory_xact_lock(\(bind: Int64(0x6A61_6477_616C)))").run()
            }
            return try await Migrations.apply(on: db, engine: engine, now: now.unixMilliseconds).map { "\($0.version) \($0.name)" }
        }
        for step in applied { logger.info("applied migration", metadata: ["migration": "\(step)"]) }
        return applied
    }

    public var schemaVersion: Int {
        get async throws {
            try await withReadDatabase { db in
                try await db.raw("SELECT 1 AS alive").run()
                return try await Migrations.currentVersion(on: db)
            }
        }
    }

    public static var latestSchemaVersion: Int { Migrations.latestVersion }
    /// How many migrations this binary has.
    public static var migrationCount: Int { Migrations.all.count }

    // MARK: Engines

    func withReadDatabase<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        switch engine {
        case .sqlite(_, let readers, _):
            return try await readers.withConnection { connection in try await body(connection.sql()) }
        case .postgres(let client, _):
            do {
                return try await boundedWait { leased in
                    try await client.withConnection { connection in
                        try leased()
                        return try await withTaskExecutorPreference(EventLoopTaskExecutor(connection.eventLoop)) {
                            try await body(PostgresSession(connection: connection))
                        }
                    }
                }
            } catch {
                throw markingUnreachable(error)
            }
        }
    }

    /// The error as callers should hear it; a lost database also shortens the waits of the
    /// requests queued for a connection meanwhile (see `boundedWait`).
    private func markingUnreachable(_ error: any Error) -> any Error {
        guard let unavailable = Self.unreachable(error) else { return error }
        unreachable.withLock { $0 = true }
        return unavailable
    }

    /// Runs `work`, which calls `leased` once it holds a connection; refused with
    /// `StoreUnavailable` when that takes longer than the wait limit. PostgreSQL's pool waits for
    /// a connection without end while the database is down; requests should hear so instead.
    /// A connection that comes just after the refusal is given back unused: `leased` throws.
    private func boundedWait<T: Sendable>(_ work: @Sendable (@escaping @Sendable () throws -> Void) async throws -> T) async throws -> T {
        guard let waitLimit else { return try await work({}) }
        // Once a wait has run out, the next ones wait a second only until a connection comes
        // again: a request during an outage hears of it at once, not after the whole limit.
        // The limit is looked at again as the wait goes on: a wait that began just before the
        // database went away is cut short too once another request has found it gone.
        let limit = { @Sendable [self] in unreachable.withLock { $0 } ? min(waitLimit, .seconds(1)) : waitLimit }
        let lease = LeaseWait(reached: { [self] in unreachable.withLock { $0 = false } })
        return try await withoutActuallyEscaping(work) { work in
            try await withThrowingTaskGroup(of: LeaseWait.Outcome<T>.self) { group in
                group.addTask { .done(try await work({ try lease.leased() })) }
                group.addTask { [reachability] in
                    let began = ContinuousClock.now
                    var asked = false
                    while ContinuousClock.now - began < limit() {
                        if !asked, let reachability, ContinuousClock.now - began >= .seconds(1), let refuses = await reachability.refuses() {
                            asked = true
                            if refuses { self.unreachable.withLock { $0 = true } }
                            continue
                        }
                        try await Task.sleep(for: min(.milliseconds(100), limit() - (ContinuousClock.now - began)))
                    }
                    return .waited
                }
                while let outcome = try await group.next() {
                    switch outcome {
                    case .done(let value):
                        group.cancelAll()
                        return value
                    case .waited:
                        guard !lease.abandonIfWaiting() else {
                            group.cancelAll()
                            unreachable.withLock { $0 = true }
                            throw Self.databaseGone
                        }
                    }
                }
                throw CancellationError()
            }
        }
    }

    /// What a caller hears while PostgreSQL cannot be reached.
    static let databaseGone = StoreUnavailable(reason: "the database cannot be reached", retryAfterSeconds: 5)

    /// PostgreSQL down or unreachable, as the caller should hear it: nothing was done, try again
    /// soon. Errors PostgreSQL itself answered (a constraint, a syntax error) stay as they are.
    static func unreachable(_ error: any Error) -> StoreUnavailable? {
        let unreachable = databaseGone
        switch error {
        case is _ConnectionPoolModule.ConnectionPoolError:
            return unreachable
        case let error as PSQLError where [.connectionError, .serverClosedConnection, .clientClosedConnection].contains(error.code):
            return unreachable
        case let error as PSQLError where ["57P01", "57P02", "57P03"].contains(error.serverInfo?[.sqlState] ?? ""):
            // The server is shutting down, crashed, or not yet accepting connections.
            return unreachable
        case is PostgresConnectionClosed:
            return unreachable
        case is PostgresCommitUnknown:
            // COMMIT itself was cut off: whether it took is not known, so that stays a 500.
            return nil
        default:
            return nil
        }
    }

    private func withWriteDatabase<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        switch engine {
        case .sqlite(let writer, _, let writerThread):
            // The whole transaction, lease to release, runs on the writer's own thread.
            return try await withTaskExecutorPreference(writerThread) {
                try await writer.withConnection { connection in
                    let db = connection.sql()
                    // IMMEDIATE takes the write lock up front, so a transaction never fails half-way
                    // when it first writes; other processes wait on busy_timeout.
                    try await db.raw("BEGIN IMMEDIATE").run()
                    do {
                        let result = try await body(db)
                        try await db.raw("COMMIT").run()
                        return result
                    } catch {
                        try? await db.raw("ROLLBACK").run()
                        throw Self.full(error) ?? error
                    }
                }
            }
        case .postgres(let client, _):
            do {
                return try await boundedWait { leased in
                    try await client.withConnection { connection in
                        try leased()
                        return try await withTaskExecutorPreference(EventLoopTaskExecutor(connection.eventLoop)) {
                            try await PostgresSession(connection: connection).transaction(body)
                        }
                    }
                }
            } catch {
                throw Self.full(error) ?? markingUnreachable(error)
            }
        }
    }

    /// A write refused because the database's disk is full, as callers should hear it.
    static func full(_ error: any Error) -> StorageFull? {
        switch error {
        case let error as SQLiteError where error.reason == .full:
            return StorageFull()
        case let error as PSQLError where error.serverInfo?[.sqlState] == "53100":
            return StorageFull()
        default:
            return nil
        }
    }
}

/// Whether a transaction has got its connection yet, for `SQLStore.boundedWait`: one of the
/// two (the connection, or the refusal) comes first, under one lock, so a transaction never runs
/// after its caller was told the database could not be reached.
private final class LeaseWait: Sendable {
    enum Outcome<T: Sendable>: Sendable {
        case done(T)
        case waited
    }

    private enum State { case waiting, leased, abandoned }

    private let state = Mutex(State.waiting)
    private let reached: @Sendable () -> Void

    init(reached: @escaping @Sendable () -> Void) {
        self.reached = reached
    }

    /// The connection came: go on, unless the wait was given up already.
    func leased() throws {
        let abandoned = state.withLock { state -> Bool in
            if state == .abandoned { return true }
            state = .leased
            return false
        }
        if abandoned { throw CancellationError() }
        reached()
    }

    /// Gives the wait up if no connection has come; false when one has (the work goes on).
    func abandonIfWaiting() -> Bool {
        state.withLock { state in
            guard state == .waiting else { return false }
            state = .abandoned
            return true
        }
    }
}
