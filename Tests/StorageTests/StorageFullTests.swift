import Foundation
import JadwalCore
import JadwalTestSupport
@testable import Storage
import SQLKit
import Testing

/// A database whose disk is full (issue 22, "Faults"): a write is refused as `StorageFull`
/// (the front doors answer 507), nothing of it is kept, reads go on, and writes work again once
/// there is room. SQLite's page limit stands in for the disk here; `scripts/faults/disk_full.py`
/// fills a real (tmpfs) filesystem under a running server.
@Suite("A full database")
struct StorageFullTests {
    static func account(_ index: Int) throws -> Account {
        Account(id: UUID(), email: try EmailAddress("full\(index)@example.com"), name: String(repeating: "n", count: 3000),
                timeZone: "UTC", language: .english, createdAt: Date(timeIntervalSince1970: 1_796_000_000))
    }

    /// Sets SQLite's page limit on the writer's connection (a PRAGMA holds per connection).
    static func limitPages(_ store: SQLStore, to pages: Int) async throws {
        try await store.transaction { tx in
            guard let repository = tx as? SQLRepository else { throw TestSetupError("not an SQL store") }
            try await repository.db.raw("PRAGMA max_page_count = \(unsafeRaw: String(pages))").run()
        }
    }

    @Test("SQLite out of room: StorageFull, nothing half-written, reads go on, writes resume once there is room")
    func sqliteFull() async throws {
        let store = try await TestEnvironment.freshStore(.sqlite)
        let pages = try await store.read { tx in
            try await (tx as? SQLRepository)?.db.raw("PRAGMA page_count").first()?.decode(column: "page_count", as: Int.self) ?? 0
        }
        try await Self.limitPages(store, to: pages + 4)
        var saved: [Account] = []
        var refusal: (any Error)?
        for index in 0..<200 {
            let account = try Self.account(index)
            do {
                // Two rows in one transaction: the first may fit where the second does not.
                try await store.transaction { tx in
                    try await tx.insertAccount(account)
                    try await tx.insertAccount(try Self.account(1000 + index))
                }
                saved.append(account)
            } catch {
                refusal = error
                break
            }
        }
        #expect(refusal is StorageFull, "refused with \(String(describing: refusal))")
        #expect(!saved.isEmpty)
        // Reads go on; what was refused left nothing behind.
        let stored = try await store.read { tx in try await tx.accounts() }
        #expect(stored.count == saved.count * 2)
        let refused = try Self.account(saved.count).email
        #expect(try await store.read { tx in try await tx.account(email: refused) } == nil)
        // Room again: the same write now works.
        try await Self.limitPages(store, to: 1_000_000)
        let later = try Self.account(saved.count)
        try await store.transaction { tx in try await tx.insertAccount(later) }
        #expect(try await store.read { tx in try await tx.account(id: later.id) } == later)
        try await store.shutdown()
    }
}
