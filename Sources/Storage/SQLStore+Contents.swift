import Foundation
import SQLKit

extension SQLStore {
    /// One table of the schema with every row, each value as text (nil for NULL).
    public struct TableContents: Sendable {
        public var name: String
        public var columns: [String]
        public var rows: [[String?]]
    }

    /// Every table of the schema and all it holds, listed from the database's own catalogue
    /// (not from the migrations), so a table added later is in it too: what a test that an
    /// account leaves nothing behind reads.
    public func contents() async throws -> [TableContents] {
        let engine = sqlEngine
        return try await withReadDatabase { db in
            let names: [String]
            switch engine {
            case .sqlite:
                names = try await db.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
                    .all().map { try $0.decode(column: "name", as: String.self) }
            case .postgres:
                names = try await db.raw("""
                    SELECT table_name AS name FROM information_schema.tables
                    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name
                    """).all().map { try $0.decode(column: "name", as: String.self) }
            }
            var tables: [TableContents] = []
            for name in names {
                let columns: [String]
                switch engine {
                case .sqlite:
                    columns = try await db.raw("SELECT name FROM pragma_table_info(\(bind: name)) ORDER BY cid").all()
                        .map { try $0.decode(column: "name", as: String.self) }
                case .postgres:
                    columns = try await db.raw("""
                        SELECT column_name AS name FROM information_schema.columns
                        WHERE table_schema = current_schema() AND table_name = \(bind: name) ORDER BY ordinal_position
                        """).all().map { try $0.decode(column: "name", as: String.self) }
                }
                // Names come from the catalogue, quoted: nothing a caller typed.
                let selection = columns.enumerated().map { "CAST(\"\($1)\" AS TEXT) AS c\($0)" }.joined(separator: ", ")
                let rows = try await db.raw("SELECT \(unsafeRaw: selection) FROM \(unsafeRaw: "\"\(name)\"")").all().map { row in
                    try columns.indices.map { try row.decode(column: "c\($0)", as: String?.self) }
                }
                tables.append(TableContents(name: name, columns: columns, rows: rows))
            }
            return tables
        }
    }
}
