import Foundation

public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database was migrated by a newer Jadwal; running this one could corrupt it.
    case schemaNewerThanBinary(database: Int, binary: Int)
    /// The database has not been migrated to the version this binary needs.
    case schemaBehind(database: Int, binary: Int)
    case closed
    case cannotCreateDirectory(String)
    case corruptRow(String)

    public var description: String {
        switch self {
        case .schemaNewerThanBinary(let database, let binary):
            "the database schema is at version \(database), but this jadwal binary only knows versions up to \(binary): run a newer jadwal (or restore a backup made for this version)"
        case .schemaBehind(let database, let binary):
            "the database schema is at version \(database), this binary needs \(binary): run `jadwal migrate`"
        case .closed: "the database connection is closed"
        case .cannotCreateDirectory(let path): "cannot create the data directory \(path)"
        case .corruptRow(let what): "unexpected data in the database: \(what)"
        }
    }
}
