import SQLKit

extension Migrations {
    /// App passwords carry a lookup id (their first group, not secret) so a sign-in checks one
    /// hash; failed password sign-ins are counted per address and account name, in the database
    /// so every instance sharing it throttles alike.
    static let v19SignInThrottle = Migration(version: 19, name: "app password lookup ids, sign-in throttle") { _ in
        [
            "ALTER TABLE app_passwords ADD COLUMN lookup_id TEXT",
            "CREATE INDEX app_passwords_lookup ON app_passwords (account_id, lookup_id)",
            """
            CREATE TABLE sign_in_failures (
                throttle_key TEXT PRIMARY KEY,
                failures BIGINT NOT NULL,
                last_failure_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX sign_in_failures_time ON sign_in_failures (last_failure_at)",
        ]
    }
}
