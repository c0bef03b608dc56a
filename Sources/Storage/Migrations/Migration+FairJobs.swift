import SQLKit

extension Migrations {
    /// Each job's place in a fair queue (`fair_at`, milliseconds): jobs of one subject (an
    /// account) queued together are spaced out, so one account's thousand checks do not hold
    /// back another's first one. Indexed for the claim (by lane and kind) and for finding a
    /// subject's last queued place.
    static let v32FairJobs = Migration(version: 32, name: "fair job queue") { _ in
        [
            "ALTER TABLE jobs ADD COLUMN fair_at BIGINT NOT NULL DEFAULT 0",
            "UPDATE jobs SET fair_at = run_at",
            "CREATE INDEX jobs_fair ON jobs (state, fair_at)",
            "CREATE INDEX jobs_kind_fair ON jobs (state, kind, fair_at)",
            "CREATE INDEX jobs_subject_fair ON jobs (subject, state, fair_at)",
        ]
    }
}
