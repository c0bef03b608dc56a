import SQLKit

extension Migrations {
    /// The last plan made for each person (`PlanRun`, as JSON): when and why it was made, the
    /// to-dos it could not place, and when the weekly job last planned. One row per account,
    /// replaced by every plan; it goes with the account.
    static let v33PlanRuns = Migration(version: 33, name: "the last plan of each account") { _ in
        [
            """
            CREATE TABLE plan_runs (
                account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
                planned_at BIGINT NOT NULL,
                run TEXT NOT NULL
            )
            """,
        ]
    }
}
