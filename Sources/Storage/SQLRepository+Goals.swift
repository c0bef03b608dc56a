import Foundation
import JadwalCore
import SQLKit

extension SQLRepository: GoalStore {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()

    private static func json(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A stored document read back; one that no longer reads (a goal that no longer validates)
    /// is a corrupt row, named.
    private static func document<T: Decodable>(_ type: T.Type, _ row: any SQLRow, _ column: String, what: String) throws -> T {
        let text = try row.decode(column: column, as: String.self)
        do {
            return try decoder.decode(T.self, from: Data(text.utf8))
        } catch {
            throw StorageError.corruptRow("\(what): \(error)")
        }
    }

    // MARK: Goals

    func insertGoal(_ goal: StoredGoal, accountID: UUID) async throws {
        try await db.raw("""
            INSERT INTO goals (account_id, id, definition, created_at, updated_at)
            VALUES (\(bind: accountID.uuidString), \(bind: goal.id), \(bind: try Self.json(goal)), \(bind: goal.createdAt.unixMilliseconds),
                    \(bind: goal.updatedAt.unixMilliseconds))
            """).run()
    }

    func updateGoal(_ goal: StoredGoal, accountID: UUID) async throws {
        try await db.raw("""
            UPDATE goals SET definition = \(bind: try Self.json(goal)), updated_at = \(bind: goal.updatedAt.unixMilliseconds)
            WHERE account_id = \(bind: accountID.uuidString) AND id = \(bind: goal.id)
            """).run()
    }

    func goals(accountID: UUID) async throws -> [StoredGoal] {
        try await db.raw("""
            SELECT id, definition FROM goals WHERE account_id = \(bind: accountID.uuidString) ORDER BY created_at, id
            """).all().map { try Self.document(StoredGoal.self, $0, "definition", what: "goal \(try $0.decode(column: "id", as: String.self))") }
    }

    func goal(id: String, accountID: UUID) async throws -> StoredGoal? {
        try await db.raw("""
            SELECT definition FROM goals WHERE account_id = \(bind: accountID.uuidString) AND id = \(bind: id)
            """).first().map { try Self.document(StoredGoal.self, $0, "definition", what: "goal \(id)") }
    }

    func deleteGoal(id: String, accountID: UUID) async throws -> Bool {
        try await db.raw("DELETE FROM plan_items WHERE account_id = \(bind: accountID.uuidString) AND goal_id = \(bind: id)").run()
        let deleted = try await db.raw("""
            DELETE FROM goals WHERE account_id = \(bind: accountID.uuidString) AND id = \(bind: id) RETURNING id
            """).all()
        return !deleted.isEmpty
    }

    func accountsWithGoals() async throws -> [UUID] {
        try await db.raw("SELECT DISTINCT account_id FROM goals ORDER BY account_id").all().map { try Self.uuid($0, "account_id") }
    }

    // MARK: Plan items

    func planItems(accountID: UUID, states: Set<PlanItem.State>) async throws -> [PlanItem] {
        guard !states.isEmpty else { return [] }
        let names = SQLList(states.map(\.rawValue).sorted().map { SQLBind($0) })
        return try await db.raw("""
            SELECT id, item FROM plan_items WHERE account_id = \(bind: accountID.uuidString) AND state IN (\(names))
            ORDER BY start_at, id
            """).all().map { try Self.document(PlanItem.self, $0, "item", what: "plan item \(try $0.decode(column: "id", as: String.self))") }
    }

    func planItem(id: String, accountID: UUID) async throws -> PlanItem? {
        try await db.raw("""
            SELECT item FROM plan_items WHERE account_id = \(bind: accountID.uuidString) AND id = \(bind: id)
            """).first().map { try Self.document(PlanItem.self, $0, "item", what: "plan item \(id)") }
    }

    func replaceProposedPlanItems(accountID: UUID, with items: [PlanItem]) async throws {
        try await db.raw("DELETE FROM plan_items WHERE account_id = \(bind: accountID.uuidString) AND state = 'proposed'").run()
        for item in items { try await insertPlanItem(item, accountID: accountID) }
    }

    func insertPlanItem(_ item: PlanItem, accountID: UUID) async throws {
        try await db.raw("""
            INSERT INTO plan_items (account_id, id, goal_id, state, start_at, end_at, item)
            VALUES (\(bind: accountID.uuidString), \(bind: item.id), \(bind: item.ownerGoalID), \(bind: item.state.rawValue),
                    \(bind: item.range.start.unixMilliseconds), \(bind: item.range.end.unixMilliseconds), \(bind: try Self.json(item)))
            ON CONFLICT (account_id, id) DO NOTHING
            """).run()
    }

    func deleteProposedPlanItems(goalID: String, accountID: UUID) async throws {
        try await db.raw("""
            DELETE FROM plan_items WHERE account_id = \(bind: accountID.uuidString) AND goal_id = \(bind: goalID) AND state = 'proposed'
            """).run()
    }

    func updatePlanItem(_ item: PlanItem, accountID: UUID) async throws {
        try await db.raw("""
            UPDATE plan_items SET state = \(bind: item.state.rawValue), start_at = \(bind: item.range.start.unixMilliseconds),
                end_at = \(bind: item.range.end.unixMilliseconds), item = \(bind: try Self.json(item))
            WHERE account_id = \(bind: accountID.uuidString) AND id = \(bind: item.id)
            """).run()
    }

    func deletePlanItem(id: String, accountID: UUID) async throws {
        try await db.raw("DELETE FROM plan_items WHERE account_id = \(bind: accountID.uuidString) AND id = \(bind: id)").run()
    }

    // MARK: Questionnaire and learning

    func plannerAnswers(accountID: UUID) async throws -> PlannerAnswers {
        guard let row = try await db.raw("SELECT answers FROM planner_answers WHERE account_id = \(bind: accountID.uuidString)").first()
        else { return PlannerAnswers() }
        return try Self.document(PlannerAnswers.self, row, "answers", what: "planner answers of \(accountID)")
    }

    func savePlannerAnswers(_ answers: PlannerAnswers, accountID: UUID, at: Date) async throws {
        try await db.raw("""
            INSERT INTO planner_answers (account_id, answers, updated_at)
            VALUES (\(bind: accountID.uuidString), \(bind: try Self.json(answers)), \(bind: at.unixMilliseconds))
            ON CONFLICT (account_id) DO UPDATE SET answers = excluded.answers, updated_at = excluded.updated_at
            """).run()
    }

    func plannerAnswersSavedAt(accountID: UUID) async throws -> Date? {
        try await db.raw("SELECT updated_at FROM planner_answers WHERE account_id = \(bind: accountID.uuidString)").first()
            .map { try Self.date($0, "updated_at") }
    }

    func plannerLearning(accountID: UUID) async throws -> PlannerLearning {
        let lock = engine == .postgres ? "FOR UPDATE" : ""
        guard let row = try await db.raw("""
            SELECT model FROM planner_learning WHERE account_id = \(bind: accountID.uuidString) \(unsafeRaw: lock)
            """).first()
        else { return PlannerLearning() }
        return try Self.document(PlannerLearning.self, row, "model", what: "planner learning of \(accountID)")
    }

    func savePlannerLearning(_ learning: PlannerLearning, accountID: UUID, at: Date) async throws {
        try await db.raw("""
            INSERT INTO planner_learning (account_id, model, updated_at)
            VALUES (\(bind: accountID.uuidString), \(bind: try Self.json(learning)), \(bind: at.unixMilliseconds))
            ON CONFLICT (account_id) DO UPDATE SET model = excluded.model, updated_at = excluded.updated_at
            """).run()
    }

    // MARK: The last plan

    func planRun(accountID: UUID) async throws -> PlanRun? {
        try await db.raw("SELECT run FROM plan_runs WHERE account_id = \(bind: accountID.uuidString)").first()
            .map { try Self.document(PlanRun.self, $0, "run", what: "last plan of \(accountID)") }
    }

    func savePlanRun(_ run: PlanRun, accountID: UUID) async throws {
        try await db.raw("""
            INSERT INTO plan_runs (account_id, planned_at, run)
            VALUES (\(bind: accountID.uuidString), \(bind: run.plannedAt.unixMilliseconds), \(bind: try Self.json(run)))
            ON CONFLICT (account_id) DO UPDATE SET planned_at = excluded.planned_at, run = excluded.run
            """).run()
    }
}

extension SQLRepository: TrackerStore {
    private static let trackerColumns =
        "id, metric, start_at, end_at, value, unit, kind, note, created_at, updated_at, source, external_id, goal_id, plan_item_id, outcome"

    private static func trackerValues(_ entry: TrackerEntry, accountID: UUID) -> SQLQueryString {
        """
        (\(bind: accountID.uuidString), \(bind: entry.id.uuidString), \(bind: entry.metric), \(bind: entry.start.unixMilliseconds),
         \(bind: entry.end?.unixMilliseconds), \(bind: entry.value), \(bind: entry.unit), \(bind: entry.kind), \(bind: entry.note),
         \(bind: entry.createdAt.unixMilliseconds), \(bind: entry.updatedAt.unixMilliseconds), \(bind: entry.source?.rawValue),
         \(bind: entry.externalID), \(bind: entry.goalID), \(bind: entry.planItemID), \(bind: entry.outcome?.rawValue))
        """
    }

    func insertTrackerEntry(_ entry: TrackerEntry, accountID: UUID) async throws {
        try await db.raw("""
            INSERT INTO tracker_entries (account_id, \(unsafeRaw: Self.trackerColumns)) VALUES \(Self.trackerValues(entry, accountID: accountID))
            """).run()
    }

    func insertTrackerEntries(_ entries: [TrackerEntry], accountID: UUID) async throws -> Set<UUID> {
        var inserted: Set<UUID> = []
        // A few hundred rows a statement keeps under both engines' limits on bound values.
        for start in stride(from: 0, to: entries.count, by: 200) {
            let rows = entries[start..<min(entries.count, start + 200)].map { Self.trackerValues($0, accountID: accountID) }
            let returned = try await db.raw("""
                INSERT INTO tracker_entries (account_id, \(unsafeRaw: Self.trackerColumns)) VALUES \(SQLList(rows))
                ON CONFLICT DO NOTHING RETURNING id
                """).all()
            for row in returned { inserted.insert(try Self.uuid(row, "id")) }
        }
        return inserted
    }

    func updateTrackerEntry(_ entry: TrackerEntry, accountID: UUID) async throws {
        try await db.raw("""
            UPDATE tracker_entries SET metric = \(bind: entry.metric), start_at = \(bind: entry.start.unixMilliseconds),
                end_at = \(bind: entry.end?.unixMilliseconds), value = \(bind: entry.value), unit = \(bind: entry.unit), kind = \(bind: entry.kind),
                note = \(bind: entry.note), updated_at = \(bind: entry.updatedAt.unixMilliseconds), source = \(bind: entry.source?.rawValue),
                external_id = \(bind: entry.externalID), goal_id = \(bind: entry.goalID), plan_item_id = \(bind: entry.planItemID),
                outcome = \(bind: entry.outcome?.rawValue)
            WHERE account_id = \(bind: accountID.uuidString) AND id = \(bind: entry.id.uuidString)
            """).run()
    }

    func trackerEntry(id: UUID, accountID: UUID) async throws -> TrackerEntry? {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.trackerColumns) FROM tracker_entries
            WHERE account_id = \(bind: accountID.uuidString) AND id = \(bind: id.uuidString)
            """).first().map(Self.trackerEntry(from:))
    }

    func trackerEntry(planItemID: String, accountID: UUID) async throws -> TrackerEntry? {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.trackerColumns) FROM tracker_entries
            WHERE account_id = \(bind: accountID.uuidString) AND plan_item_id = \(bind: planItemID)
            """).first().map(Self.trackerEntry(from:))
    }

    func deleteTrackerEntry(id: UUID, accountID: UUID) async throws -> Bool {
        let deleted = try await db.raw("""
            DELETE FROM tracker_entries WHERE account_id = \(bind: accountID.uuidString) AND id = \(bind: id.uuidString) RETURNING id
            """).all()
        return !deleted.isEmpty
    }

    func deleteTrackerEntries(ids: [UUID], accountID: UUID) async throws {
        for start in stride(from: 0, to: ids.count, by: 500) {
            let list = SQLList(ids[start..<min(ids.count, start + 500)].map { SQLBind($0.uuidString) })
            try await db.raw("DELETE FROM tracker_entries WHERE account_id = \(bind: accountID.uuidString) AND id IN (\(list))").run()
        }
    }

    func trackerEntries(accountID: UUID, metric: String?, from: Date, to: Date, limit: Int) async throws -> [TrackerEntry] {
        let metricFilter: SQLQueryString = metric.map { "AND metric = \(bind: $0)" } ?? ""
        return try await db.raw("""
            SELECT \(unsafeRaw: Self.trackerColumns) FROM tracker_entries
            WHERE account_id = \(bind: accountID.uuidString) \(metricFilter)
                AND start_at >= \(bind: from.unixMilliseconds) AND start_at < \(bind: to.unixMilliseconds)
            ORDER BY start_at, id LIMIT \(bind: limit)
            """).all().map(Self.trackerEntry(from:))
    }

    func trackerEntries(accountID: UUID, source: TrackerEntry.Source, metric: String, from: Date, to: Date) async throws -> [TrackerEntry] {
        try await db.raw("""
            SELECT \(unsafeRaw: Self.trackerColumns) FROM tracker_entries
            WHERE account_id = \(bind: accountID.uuidString) AND source = \(bind: source.rawValue) AND metric = \(bind: metric)
                AND start_at >= \(bind: from.unixMilliseconds) AND start_at < \(bind: to.unixMilliseconds)
            ORDER BY start_at, id
            """).all().map(Self.trackerEntry(from:))
    }

    private static func trackerEntry(from row: any SQLRow) throws -> TrackerEntry {
        func parsed<T: RawRepresentable<String>>(_ column: String, _ type: T.Type) throws -> T? {
            guard let text = try row.decode(column: column, as: String?.self) else { return nil }
            guard let value = T(rawValue: text) else { throw StorageError.corruptRow("tracker entry \(column) '\(text)'") }
            return value
        }
        return TrackerEntry(
            id: try uuid(row, "id"), metric: try row.decode(column: "metric", as: String.self), start: try date(row, "start_at"),
            end: try optionalDate(row, "end_at"), value: try row.decode(column: "value", as: Double.self),
            unit: try row.decode(column: "unit", as: String.self), kind: try row.decode(column: "kind", as: String?.self),
            note: try row.decode(column: "note", as: String?.self), createdAt: try date(row, "created_at"), updatedAt: try date(row, "updated_at"),
            source: try parsed("source", TrackerEntry.Source.self), externalID: try row.decode(column: "external_id", as: String?.self),
            goalID: try row.decode(column: "goal_id", as: String?.self), planItemID: try row.decode(column: "plan_item_id", as: String?.self),
            outcome: try parsed("outcome", TrackerEntry.Outcome.self))
    }
}
