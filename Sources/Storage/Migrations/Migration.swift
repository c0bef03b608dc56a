import SQLKit

/// One step of the schema. Versions only grow; a migration is never edited once released.
struct Migration: Sendable {
    let version: Int
    let name: String
    /// Statements per engine; the same SQL unless a type really differs.
    let statements: @Sendable (SQLEngine) -> [String]
}

enum SQLEngine: Sendable {
    case sqlite, postgres
}

enum Migrations {
    static let all: [Migration] = [v1Accounts, v2Jobs, v3Calendars, v4AppPasswords, v5PrayerSettings, v6CalendarFeeds, v7DeadPropertiesAndSetup, v8TimeRangeIndex, v9Chats, v10CloudAPINumbers, v11Conflicts, v12ScheduleSettings, v13Notifications, v14HijriPreference, v15ShortSpans, v16ChatLengthsAndQuiet, v17CalendarSubscriptions, v18GoalsAndTracker, v19SignInThrottle, v20HiddenCalendars, v21WhatsAppLinks, v22CalendarShares, v23CalDAVAccounts, v29WebPushAndPrayerAlerts, v31ConflictOverlaps, v27WhatsAppHistoryAndQR, v30AccountOwnership, v24Invitations, v26TrackerSources, v25ChangeLogRetention, v28CalendarUsage, v32FairJobs, v33PlanRuns, v34RemoteSignIn]
    static var latestVersion: Int { all.map(\.version).max() ?? 0 }

    // Instants are BIGINT milliseconds since 1970 and ids are TEXT UUIDs on both engines,
    // so one SQL code path reads and writes them.
    static let v1Accounts = Migration(version: 1, name: "accounts and sessions") { _ in
        [
            """
            CREATE TABLE accounts (
                id TEXT PRIMARY KEY,
                email TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL DEFAULT '',
                time_zone TEXT NOT NULL DEFAULT 'UTC',
                language TEXT NOT NULL DEFAULT 'en',
                created_at BIGINT NOT NULL,
                disabled_at BIGINT
            )
            """,
            """
            CREATE TABLE sign_in_tokens (
                token_digest TEXT PRIMARY KEY,
                email TEXT NOT NULL,
                requester TEXT,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT
            )
            """,
            "CREATE INDEX sign_in_tokens_email ON sign_in_tokens (email, created_at)",
            "CREATE INDEX sign_in_tokens_requester ON sign_in_tokens (requester, created_at)",
            """
            CREATE TABLE sessions (
                id TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                method TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                user_agent TEXT,
                client_address TEXT,
                revoked_at BIGINT,
                revoked_reason TEXT
            )
            """,
            "CREATE INDEX sessions_account ON sessions (account_id)",
            """
            CREATE TABLE refresh_tokens (
                token_digest TEXT PRIMARY KEY,
                session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                rotated_at BIGINT
            )
            """,
            "CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id)",
        ]
    }

    static let v2Jobs = Migration(version: 2, name: "durable jobs") { _ in
        [
            """
            CREATE TABLE jobs (
                id TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                payload TEXT NOT NULL,
                state TEXT NOT NULL,
                attempts BIGINT NOT NULL DEFAULT 0,
                max_attempts BIGINT NOT NULL,
                run_at BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                locked_by TEXT,
                locked_until BIGINT,
                last_error TEXT,
                finished_at BIGINT
            )
            """,
            "CREATE INDEX jobs_runnable ON jobs (state, run_at)",
        ]
    }
}

extension Migrations {
    static let v3Calendars = Migration(version: 3, name: "calendars, objects and their change log") { _ in
        [
            """
            CREATE TABLE calendars (
                id TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                slug TEXT NOT NULL,
                display_name TEXT NOT NULL,
                description TEXT NOT NULL DEFAULT '',
                color TEXT,
                sort_order BIGINT,
                time_zone TEXT,
                components TEXT NOT NULL,
                revision BIGINT NOT NULL DEFAULT 0,
                created_at BIGINT NOT NULL,
                UNIQUE (account_id, slug)
            )
            """,
            """
            CREATE TABLE calendar_objects (
                calendar_id TEXT NOT NULL REFERENCES calendars (id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                uid TEXT NOT NULL,
                component TEXT NOT NULL,
                icalendar TEXT NOT NULL,
                etag TEXT NOT NULL,
                first_start BIGINT,
                last_end BIGINT,
                revision BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                PRIMARY KEY (calendar_id, name),
                UNIQUE (calendar_id, uid)
            )
            """,
            "CREATE INDEX calendar_objects_time ON calendar_objects (calendar_id, first_start)",
            """
            CREATE TABLE calendar_changes (
                calendar_id TEXT NOT NULL REFERENCES calendars (id) ON DELETE CASCADE,
                revision BIGINT NOT NULL,
                name TEXT NOT NULL,
                kind TEXT NOT NULL,
                PRIMARY KEY (calendar_id, revision)
            )
            """,
        ]
    }
}

extension Migrations {
    static let v4AppPasswords = Migration(version: 4, name: "app passwords") { _ in
        [
            """
            CREATE TABLE app_passwords (
                id TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                password_hash TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT,
                revoked_at BIGINT
            )
            """,
            "CREATE INDEX app_passwords_account ON app_passwords (account_id)",
        ]
    }
}

extension Migrations {
    static let v5PrayerSettings = Migration(version: 5, name: "prayer settings") { _ in
        [
            """
            CREATE TABLE prayer_settings (
                account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
                settings TEXT NOT NULL,
                revision BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
        ]
    }
}

extension Migrations {
    static let v6CalendarFeeds = Migration(version: 6, name: "calendar feeds") { _ in
        [
            """
            CREATE TABLE calendar_feeds (
                token_digest TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                alarm_minutes_before BIGINT,
                created_at BIGINT NOT NULL,
                revoked_at BIGINT
            )
            """,
            "CREATE INDEX calendar_feeds_account ON calendar_feeds (account_id, kind)",
        ]
    }
}

extension Migrations {
    /// Properties clients set that Jadwal does not model (RFC 4918 dead properties), kept per
    /// calendar as JSON; and the one-time tokens of Easy Setup profiles.
    static let v7DeadPropertiesAndSetup = Migration(version: 7, name: "dead properties and setup tokens") { _ in
        [
            "ALTER TABLE calendars ADD COLUMN dead_properties TEXT NOT NULL DEFAULT '{}'",
            """
            CREATE TABLE setup_tokens (
                token_digest TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                device_name TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT
            )
            """,
            "CREATE INDEX setup_tokens_account ON setup_tokens (account_id)",
        ]
    }
}

extension Migrations {
    /// Both bounds in one index, so a time-range query tests `last_end` on index entries and
    /// reads only the rows that may overlap (instead of every row that starts before the end).
    static let v8TimeRangeIndex = Migration(version: 8, name: "time-range index with both bounds; setup link kinds") { _ in
        [
            "CREATE INDEX calendar_objects_span ON calendar_objects (calendar_id, first_start, last_end)",
            "DROP INDEX calendar_objects_time",
            // What a setup link's profile holds: the CalDAV account, or only the prayer subscription.
            "ALTER TABLE setup_tokens ADD COLUMN kind TEXT NOT NULL DEFAULT 'caldav'",
        ]
    }
}

extension Migrations {
    /// Chats: conversations with their state, plan and the events Jadwal created from them;
    /// messages with their text encrypted (and dropped once the conversation is resolved or the
    /// retention period is over, the row kept so a second delivery is recognised); connector
    /// tokens (stored as digests); per-account chat settings.
    static let v9Chats = Migration(version: 9, name: "chats") { _ in
        [
            """
            CREATE TABLE chat_conversations (
                id TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                source TEXT NOT NULL,
                chat_key TEXT NOT NULL,
                partner_name TEXT NOT NULL,
                is_group BOOLEAN NOT NULL DEFAULT FALSE,
                state TEXT NOT NULL,
                proposal TEXT,
                events TEXT NOT NULL DEFAULT '[]',
                follow_ups_due_at BIGINT,
                awaiting_extraction BOOLEAN NOT NULL DEFAULT FALSE,
                message_count BIGINT NOT NULL DEFAULT 0,
                last_activity_at BIGINT NOT NULL,
                resolved_at BIGINT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                UNIQUE (account_id, source, chat_key)
            )
            """,
            "CREATE INDEX chat_conversations_activity ON chat_conversations (account_id, last_activity_at)",
            // What the conflict-check and notification features will look for.
            "CREATE INDEX chat_conversations_follow_ups ON chat_conversations (follow_ups_due_at) WHERE follow_ups_due_at IS NOT NULL",
            "CREATE INDEX chat_conversations_awaiting ON chat_conversations (account_id) WHERE awaiting_extraction",
            """
            CREATE TABLE chat_messages (
                conversation_id TEXT NOT NULL REFERENCES chat_conversations (id) ON DELETE CASCADE,
                external_id TEXT NOT NULL,
                position BIGINT NOT NULL,
                sender TEXT,
                from_me BOOLEAN NOT NULL,
                kind TEXT NOT NULL,
                sent_at BIGINT NOT NULL,
                ciphertext TEXT,
                nonce TEXT,
                key_id TEXT,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (conversation_id, external_id)
            )
            """,
            // Only messages that still hold text are ever read back or swept.
            "CREATE INDEX chat_messages_held ON chat_messages (conversation_id, sent_at, position) WHERE ciphertext IS NOT NULL",
            "CREATE INDEX chat_messages_held_age ON chat_messages (sent_at) WHERE ciphertext IS NOT NULL",
            """
            CREATE TABLE chat_connector_tokens (
                id TEXT PRIMARY KEY,
                token_digest TEXT NOT NULL UNIQUE,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT,
                revoked_at BIGINT
            )
            """,
            "CREATE INDEX chat_connector_tokens_account ON chat_connector_tokens (account_id)",
            """
            CREATE TABLE chat_settings (
                account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
                extraction_paused BOOLEAN NOT NULL DEFAULT FALSE,
                allow_groups BOOLEAN NOT NULL DEFAULT FALSE,
                retention_days BIGINT NOT NULL,
                me_name TEXT,
                updated_at BIGINT NOT NULL
            )
            """,
        ]
    }

    /// The WhatsApp Business number whose webhook deliveries are an account's: one account per number.
    static let v10CloudAPINumbers = Migration(version: 10, name: "cloud API numbers") { _ in
        [
            "ALTER TABLE chat_settings ADD COLUMN cloud_api_phone_number_id TEXT",
            "CREATE UNIQUE INDEX chat_settings_cloud_api_number ON chat_settings (cloud_api_phone_number_id)",
        ]
    }

    /// Conflicts found when events are written. The event and its overlaps are JSON (read and
    /// written whole); what is searched on has its own columns.
    static let v11Conflicts = Migration(version: 11, name: "conflicts") { _ in
        [
            """
            CREATE TABLE conflicts (
                id TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                calendar_id TEXT NOT NULL,
                object_name TEXT NOT NULL,
                occurrence_start BIGINT NOT NULL,
                status TEXT NOT NULL,
                source TEXT NOT NULL,
                notify BOOLEAN NOT NULL,
                event TEXT NOT NULL,
                overlapping TEXT NOT NULL,
                detected_at BIGINT NOT NULL,
                resolved_at BIGINT
            )
            """,
            "CREATE INDEX conflicts_object ON conflicts (calendar_id, object_name)",
            "CREATE INDEX conflicts_account_status ON conflicts (account_id, status, occurrence_start)",
            """
            CREATE TABLE conflict_settings (
                account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
                notify_sources TEXT NOT NULL,
                notify_prayer_overlaps BOOLEAN NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
        ]
    }
}

extension Migrations {
    /// Working hours (JSON hours or NULL) and per-calendar busy rules (JSON, calendar id → rule).
    static let v12ScheduleSettings = Migration(version: 12, name: "schedule settings") { _ in
        [
            "ALTER TABLE conflict_settings ADD COLUMN working_hours TEXT",
            "ALTER TABLE conflict_settings ADD COLUMN busy_policies TEXT NOT NULL DEFAULT '{}'",
        ]
    }
}

extension Migrations {
    /// The notification feed (a per-account sequence numbers it for the live stream; the reason
    /// key makes a notification once-only), its settings, push devices, what each channel sent,
    /// and a subject on jobs so a calendar object's pending reminders can be cancelled.
    static let v13Notifications = Migration(version: 13, name: "notifications") { _ in
        [
            """
            CREATE TABLE notifications (
                id TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                sequence BIGINT NOT NULL,
                kind TEXT NOT NULL,
                reason_key TEXT NOT NULL,
                title TEXT NOT NULL,
                body TEXT NOT NULL,
                links TEXT NOT NULL,
                urgent BOOLEAN NOT NULL,
                created_at BIGINT NOT NULL,
                deliver_after BIGINT NOT NULL,
                read_at BIGINT,
                UNIQUE (account_id, reason_key),
                UNIQUE (account_id, sequence)
            )
            """,
            "CREATE INDEX notifications_feed ON notifications (account_id, deliver_after, sequence)",
            """
            CREATE TABLE notification_sequences (
                account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
                last_sequence BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE notification_settings (
                account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
                email_kinds TEXT NOT NULL,
                push_kinds TEXT NOT NULL,
                quiet_during_sleep BOOLEAN NOT NULL,
                quiet_during_prayer BOOLEAN NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE push_devices (
                id TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                token TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT
            )
            """,
            "CREATE INDEX push_devices_account ON push_devices (account_id)",
            """
            CREATE TABLE notification_deliveries (
                notification_id TEXT NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
                channel TEXT NOT NULL,
                sent_at BIGINT NOT NULL,
                PRIMARY KEY (notification_id, channel)
            )
            """,
            "ALTER TABLE jobs ADD COLUMN subject TEXT",
            // Chat follow-ups waited for this feature; notifications are now posted with the change.
            "DROP INDEX chat_conversations_follow_ups",
            "ALTER TABLE chat_conversations DROP COLUMN follow_ups_due_at",
            "CREATE INDEX jobs_subject ON jobs (subject, kind, state)",
        ]
    }
}

extension Migrations {
    /// Whether the web app shows the Hijri date beside the Gregorian one; off until the person asks.
    static let v14HijriPreference = Migration(version: 14, name: "hijri date preference") { engine in
        switch engine {
        case .sqlite: ["ALTER TABLE accounts ADD COLUMN show_hijri BOOLEAN NOT NULL DEFAULT 0"]
        case .postgres: ["ALTER TABLE accounts ADD COLUMN show_hijri BOOLEAN NOT NULL DEFAULT FALSE"]
        }
    }
}

extension Migrations {
    /// Applies every migration the database has not recorded, in version order, so a migration
    /// merged with a lower number than one already applied (features built side by side) still
    /// runs. The caller runs it in one transaction, so a failed step leaves the schema as it was.
    /// Refuses a database that recorded a version this binary does not know (a newer binary's).
    static func apply(on db: any SQLDatabase, engine: SQLEngine, now: Int64) async throws -> [Migration] {
        try await db.raw("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version BIGINT PRIMARY KEY,
                name TEXT NOT NULL,
                applied_at BIGINT NOT NULL
            )
            """).run()
        let recorded = try await appliedVersions(on: db)
        if let unknown = recorded.subtracting(all.map(\.version)).max() {
            throw StorageError.schemaNewerThanBinary(database: unknown, binary: latestVersion)
        }
        var applied: [Migration] = []
        for migration in all.sorted(by: { $0.version < $1.version }) where !recorded.contains(migration.version) {
            for statement in migration.statements(engine) {
                try await db.raw(SQLQueryString(statement)).run()
            }
            try await db.raw("""
                INSERT INTO schema_migrations (version, name, applied_at)
                VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: now))
                """).run()
            applied.append(migration)
        }
        return applied
    }

    static func appliedVersions(on db: any SQLDatabase) async throws -> Set<Int> {
        Set(try await db.raw("SELECT version FROM schema_migrations").all().map { try $0.decode(column: "version", as: Int.self) })
    }

    /// The version a database is at: the highest it recorded, or, when one below that is still
    /// missing, just below the first missing one (so `checkReady` reports it behind).
    static func currentVersion(on db: any SQLDatabase) async throws -> Int {
        let recorded = try await appliedVersions(on: db)
        guard let highest = recorded.max() else { return 0 }
        if let missing = all.map(\.version).filter({ $0 < highest && !recorded.contains($0) }).min() {
            return missing - 1
        }
        return highest
    }
}

extension Migrations {
    /// Objects whose index span is at most 7 days (`long_span = 0`: nearly every non-recurring
    /// event) can only overlap a range if they start less than 7 days before it, so a
    /// time-range query reads a bounded slice of the index for them and scans only the long
    /// ones (recurring series, long events): the cost follows the range, not the calendar.
    /// The limit must equal `SQLRepository.shortSpanLimit`.
    static let v15ShortSpans = Migration(version: 15, name: "time-range index split by span length") { _ in
        [
            "ALTER TABLE calendar_objects ADD COLUMN long_span INTEGER NOT NULL DEFAULT 1",
            """
            UPDATE calendar_objects SET long_span = CASE
                WHEN first_start IS NOT NULL AND last_end IS NOT NULL AND last_end - first_start <= 604800000 THEN 0 ELSE 1 END
            """,
            "CREATE INDEX calendar_objects_window ON calendar_objects (calendar_id, long_span, first_start, last_end)",
            "DROP INDEX calendar_objects_span",
        ]
    }
}

extension Migrations {
    /// Chat events get a length (the person's default, `event_minutes`); live chats are read
    /// once quiet (`read_after`); failed readings are listed for the operator. The one-off job
    /// gives events made before this a length (`ChatEventLengths.jobKind`), only where chats made any.
    static let v16ChatLengthsAndQuiet = Migration(version: 16, name: "chat event lengths, quiet live chats, extraction failures") { _ in
        [
            "ALTER TABLE chat_settings ADD COLUMN event_minutes BIGINT NOT NULL DEFAULT 60",
            "ALTER TABLE chat_conversations ADD COLUMN read_after BIGINT",
            """
            CREATE TABLE chat_extraction_failures (
                id TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                conversation_id TEXT NOT NULL,
                source TEXT NOT NULL,
                reason TEXT NOT NULL,
                summary TEXT NOT NULL,
                occurred_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX chat_extraction_failures_time ON chat_extraction_failures (occurred_at)",
            """
            INSERT INTO jobs (id, kind, payload, state, attempts, max_attempts, run_at, created_at)
            SELECT '1b6c1f0e-6a51-4e0a-9d3c-16c4a7e1e016', 'chats.event-lengths', '{}', 'queued', 0, 8, 0, 0
            WHERE EXISTS (SELECT 1 FROM chat_conversations WHERE events <> '[]')
            """,
        ]
    }
}

extension Migrations {
    /// Calendars filled from ICS feeds: the feed's address, what the last fetch said (validators,
    /// the body's digest) and the refresh state. The subscription goes with its calendar.
    static let v17CalendarSubscriptions = Migration(version: 17, name: "calendar subscriptions") { engine in
        let no = engine == .sqlite ? "0" : "FALSE"
        let yes = engine == .sqlite ? "1" : "TRUE"
        return [
            "ALTER TABLE calendars ADD COLUMN subscription_id TEXT",
            """
            CREATE TABLE calendar_subscriptions (
                id TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                calendar_id TEXT NOT NULL REFERENCES calendars (id) ON DELETE CASCADE,
                url TEXT NOT NULL,
                refresh_seconds BIGINT,
                feed_refresh_seconds BIGINT,
                follows_feed_name BOOLEAN NOT NULL DEFAULT \(yes),
                follows_feed_color BOOLEAN NOT NULL DEFAULT \(yes),
                as_tasks BOOLEAN NOT NULL DEFAULT \(no),
                etag TEXT,
                last_modified TEXT,
                content_digest TEXT,
                last_attempt_at BIGINT,
                last_success_at BIGINT,
                next_refresh_at BIGINT NOT NULL,
                last_error TEXT,
                failures BIGINT NOT NULL DEFAULT 0,
                failure_notified BOOLEAN NOT NULL DEFAULT \(no),
                gone_since BIGINT,
                paused_at BIGINT,
                object_count BIGINT NOT NULL DEFAULT 0,
                problems TEXT NOT NULL DEFAULT '[]',
                problem_count BIGINT NOT NULL DEFAULT 0,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX calendar_subscriptions_account ON calendar_subscriptions (account_id)",
            "CREATE UNIQUE INDEX calendar_subscriptions_calendar ON calendar_subscriptions (calendar_id)",
        ]
    }
}

extension Migrations {
    /// Goals, the two-week plan's items (proposed, accepted, rejected), the planner's
    /// questionnaire and what it learned, and tracker entries. Goals, plan items, answers and
    /// learning are stored as JSON of Core's types beside the columns queries need; a tracker
    /// entry is plain columns, because summaries add them up.
    static let v18GoalsAndTracker = Migration(version: 18, name: "goals, two-week plan, tracker") { _ in
        [
            """
            CREATE TABLE goals (
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                id TEXT NOT NULL,
                definition TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                PRIMARY KEY (account_id, id)
            )
            """,
            """
            CREATE TABLE plan_items (
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                id TEXT NOT NULL,
                goal_id TEXT,
                state TEXT NOT NULL,
                start_at BIGINT NOT NULL,
                end_at BIGINT NOT NULL,
                item TEXT NOT NULL,
                PRIMARY KEY (account_id, id)
            )
            """,
            "CREATE INDEX plan_items_state ON plan_items (account_id, state, start_at)",
            """
            CREATE TABLE planner_answers (
                account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
                answers TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE planner_learning (
                account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
                model TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE tracker_entries (
                id TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                metric TEXT NOT NULL,
                start_at BIGINT NOT NULL,
                end_at BIGINT,
                value DOUBLE PRECISION NOT NULL,
                unit TEXT NOT NULL,
                kind TEXT,
                note TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX tracker_entries_metric ON tracker_entries (account_id, metric, start_at)",
        ]
    }

    /// WhatsApp linked by pairing code: one link per account, its session (whatsmeow's device
    /// store) sealed with the chat key like message text. Deleting the account deletes it.
    static let v21WhatsAppLinks = Migration(version: 21, name: "WhatsApp links") { _ in
        [
            """
            CREATE TABLE whatsapp_links (
                account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
                attempt TEXT NOT NULL,
                phone TEXT NOT NULL,
                state TEXT NOT NULL,
                reason TEXT,
                code TEXT,
                expires_at BIGINT NOT NULL,
                jid TEXT,
                history_days INTEGER NOT NULL,
                session_ciphertext TEXT,
                session_nonce TEXT,
                session_key_id TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX whatsapp_links_state ON whatsapp_links (state)",
        ]
    }
}

extension Migrations {
    /// The calendars a person keeps out of their calendar views (the calendars screen's
    /// show/hide); a row goes with its calendar.
    static let v20HiddenCalendars = Migration(version: 20, name: "calendars hidden from the views") { _ in
        [
            """
            CREATE TABLE hidden_calendars (
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                calendar_id TEXT NOT NULL REFERENCES calendars (id) ON DELETE CASCADE,
                hidden_at BIGINT NOT NULL,
                PRIMARY KEY (account_id, calendar_id)
            )
            """,
            "CREATE INDEX hidden_calendars_calendar ON hidden_calendars (calendar_id)",
        ]
    }
}

extension Migrations {
    /// Calendars shared with other people by email (an invitation until answered; the sharee's
    /// own slug, name and colour once accepted), and whom each person lets see their busy time.
    static let v22CalendarShares = Migration(version: 22, name: "calendar shares and busy-time visibility") { engine in
        let no = engine == .sqlite ? "0" : "FALSE"
        return [
            """
            CREATE TABLE calendar_shares (
                id TEXT PRIMARY KEY,
                calendar_id TEXT NOT NULL REFERENCES calendars (id) ON DELETE CASCADE,
                owner_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                sharee_email TEXT NOT NULL,
                sharee_id TEXT REFERENCES accounts (id) ON DELETE CASCADE,
                access TEXT NOT NULL,
                state TEXT NOT NULL,
                slug TEXT,
                display_name TEXT,
                color TEXT,
                busy_set BOOLEAN NOT NULL DEFAULT \(no),
                busy BOOLEAN NOT NULL DEFAULT \(no),
                note TEXT NOT NULL DEFAULT '',
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                UNIQUE (calendar_id, sharee_email)
            )
            """,
            "CREATE UNIQUE INDEX calendar_shares_sharee_slug ON calendar_shares (sharee_id, slug)",
            "CREATE INDEX calendar_shares_email ON calendar_shares (sharee_email)",
            "CREATE INDEX calendar_shares_owner ON calendar_shares (owner_id)",
            """
            CREATE TABLE busy_time_visibility (
                account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
                audience TEXT NOT NULL,
                allowed TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
        ]
    }
}

extension Migrations {
    /// Connected CalDAV accounts (the password sealed with the chat key, like message text), the
    /// remote calendars mirrored into calendars of the person's, and per object the remote
    /// address and ETag with the local ETag both sides last agreed on.
    static let v23CalDAVAccounts = Migration(version: 23, name: "CalDAV accounts") { engine in
        let no = engine == .sqlite ? "0" : "FALSE"
        return [
            "ALTER TABLE calendars ADD COLUMN caldav_account_id TEXT",
            """
            CREATE TABLE caldav_accounts (
                id TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                url TEXT NOT NULL,
                home_url TEXT NOT NULL,
                username TEXT NOT NULL,
                password_ciphertext TEXT NOT NULL,
                password_nonce TEXT NOT NULL,
                password_key_id TEXT NOT NULL,
                remote_calendars TEXT NOT NULL DEFAULT '[]',
                last_attempt_at BIGINT,
                last_success_at BIGINT,
                next_sync_at BIGINT NOT NULL,
                last_error TEXT,
                failures BIGINT NOT NULL DEFAULT 0,
                failure_notified BOOLEAN NOT NULL DEFAULT \(no),
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX caldav_accounts_account ON caldav_accounts (account_id)",
            """
            CREATE TABLE calendar_mirrors (
                calendar_id TEXT PRIMARY KEY REFERENCES calendars (id) ON DELETE CASCADE,
                caldav_account_id TEXT NOT NULL REFERENCES caldav_accounts (id) ON DELETE CASCADE,
                remote_url TEXT NOT NULL,
                sync_token TEXT,
                ctag TEXT
            )
            """,
            "CREATE INDEX calendar_mirrors_account ON calendar_mirrors (caldav_account_id)",
            """
            CREATE TABLE mirrored_objects (
                calendar_id TEXT NOT NULL REFERENCES calendars (id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                remote_url TEXT NOT NULL,
                remote_etag TEXT,
                local_etag TEXT NOT NULL,
                PRIMARY KEY (calendar_id, name)
            )
            """,
        ]
    }
}

extension Migrations {
    /// Browsers that receive Web Push (one row per push-service endpoint, moved with it when
    /// another account subscribes the same browser), and each person's prayer alerts (JSON).
    static let v29WebPushAndPrayerAlerts = Migration(version: 29, name: "web push subscriptions and prayer alerts") { _ in
        [
            """
            CREATE TABLE web_push_subscriptions (
                id TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                endpoint TEXT NOT NULL UNIQUE,
                p256dh TEXT NOT NULL,
                auth TEXT NOT NULL,
                name TEXT NOT NULL,
                server_key TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT
            )
            """,
            "CREATE INDEX web_push_subscriptions_account ON web_push_subscriptions (account_id)",
            """
            CREATE TABLE prayer_alerts (
                account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
                settings TEXT NOT NULL,
                active BOOLEAN NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
        ]
    }

    /// WhatsApp linking: the days of history read at link time become a chat setting (the link
    /// keeps the value it was made with), and a link can wait on a QR code instead of a pairing
    /// code (`qr`, the payload WhatsApp's phone app scans; it rotates while the link waits).
    static let v27WhatsAppHistoryAndQR = Migration(version: 27, name: "WhatsApp history days setting, QR linking") { _ in
        [
            "ALTER TABLE chat_settings ADD COLUMN whatsapp_history_days BIGINT NOT NULL DEFAULT 7",
            "ALTER TABLE whatsapp_links ADD COLUMN qr TEXT",
        ]
    }

    /// Owning one's account: whether the first-run guide was finished or skipped (accounts made
    /// before it existed count as finished, so nobody already settled in is sent through it), and
    /// the one-time links that confirm a new address or the account's deletion.
    static let v30AccountOwnership = Migration(version: 30, name: "first run, account links") { _ in
        [
            """
            CREATE TABLE first_runs (
                account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
                state TEXT NOT NULL,
                finished_at BIGINT NOT NULL
            )
            """,
            "INSERT INTO first_runs (account_id, state, finished_at) SELECT id, 'completed', created_at FROM accounts",
            """
            CREATE TABLE account_links (
                token_digest TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                purpose TEXT NOT NULL,
                new_email TEXT,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT
            )
            """,
            "CREATE INDEX account_links_account ON account_links (account_id, purpose, created_at)",
        ]
    }

    /// Invitations to meetings organised here (one row per person invited, kept in step with
    /// the organizer's copy), each person's scheduling Inbox, and the single-use answer tokens
    /// of invitation emails (digests only).
    static let v24Invitations = Migration(version: 24, name: "invitations and scheduling inboxes") { _ in
        [
            """
            CREATE TABLE invitations (
                id TEXT PRIMARY KEY,
                organizer_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                uid TEXT NOT NULL,
                attendee_email TEXT NOT NULL,
                attendee_id TEXT REFERENCES accounts (id) ON DELETE SET NULL,
                attendee_name TEXT,
                partstat TEXT NOT NULL,
                schedule_status TEXT NOT NULL,
                state TEXT NOT NULL,
                summary TEXT NOT NULL,
                starts_at BIGINT,
                ends_at BIGINT,
                all_day BOOLEAN NOT NULL,
                recurring BOOLEAN NOT NULL,
                proposed_start BIGINT,
                proposed_end BIGINT,
                proposal_comment TEXT,
                proposed_at BIGINT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                UNIQUE (organizer_id, uid, attendee_email)
            )
            """,
            "CREATE INDEX invitations_attendee ON invitations (attendee_id, updated_at)",
            "CREATE INDEX invitations_email ON invitations (attendee_email, updated_at)",
            """
            CREATE TABLE scheduling_messages (
                id TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                uid TEXT NOT NULL,
                method TEXT NOT NULL,
                sender TEXT NOT NULL,
                icalendar TEXT NOT NULL,
                etag TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                UNIQUE (account_id, name)
            )
            """,
            "CREATE INDEX scheduling_messages_account ON scheduling_messages (account_id, created_at)",
            """
            CREATE TABLE invitation_tokens (
                token_digest TEXT PRIMARY KEY,
                invitation_id TEXT NOT NULL REFERENCES invitations (id) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT
            )
            """,
            "CREATE INDEX invitation_tokens_invitation ON invitation_tokens (invitation_id)",
        ]
    }

    /// Tracker entries that came from somewhere: an import (Apple Health; its key makes a second
    /// import add nothing) or a planned session marked done or skipped (one entry per item).
    static let v26TrackerSources = Migration(version: 26, name: "tracker entry sources") { _ in
        [
            "ALTER TABLE tracker_entries ADD COLUMN source TEXT",
            "ALTER TABLE tracker_entries ADD COLUMN external_id TEXT",
            "ALTER TABLE tracker_entries ADD COLUMN goal_id TEXT",
            "ALTER TABLE tracker_entries ADD COLUMN plan_item_id TEXT",
            "ALTER TABLE tracker_entries ADD COLUMN outcome TEXT",
            // NULLs are distinct on both engines: entries typed in by hand have neither key.
            "CREATE UNIQUE INDEX tracker_entries_external ON tracker_entries (account_id, external_id)",
            "CREATE UNIQUE INDEX tracker_entries_plan_item ON tracker_entries (account_id, plan_item_id)",
        ]
    }
}
