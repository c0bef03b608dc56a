import SQLKit

extension Migrations {
    /// How Jadwal signs in to a connected account: `password` (Basic or Digest), or `google`
    /// (OAuth; the sealed "password" is then the refresh token).
    static let v34RemoteSignIn = Migration(version: 34, name: "how a connected account signs in") { _ in
        [
            "ALTER TABLE caldav_accounts ADD COLUMN sign_in TEXT NOT NULL DEFAULT 'password'",
        ]
    }
}
