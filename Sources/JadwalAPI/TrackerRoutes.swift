import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP
import Scheduling

/// `/api/v1/tracker`: sleep, exercise and custom measures (`entries`), and their progress by
/// day, week, month or year with streaks (`summary?metric=sleep&period=week`).
package struct TrackerRoutes: Sendable {
    package let tracker: Tracker
    package let healthImport: HealthImport
    /// The largest Health export an upload may be.
    package let uploadLimit: Int

    package init(tracker: Tracker, healthImport: HealthImport, uploadLimit: Int) {
        self.tracker = tracker
        self.healthImport = healthImport
        self.uploadLimit = uploadLimit
    }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        // Apple Health's export.zip (or its export.xml), as the body or a form's `file`: streamed
        // to a temporary file, then read as it streams; sleep and workouts become entries.
        group.post("tracker/import/apple-health") { request, context in
            let account = try context.requireIdentity().account
            let upload = try await FileUpload.receive(request, limit: uploadLimit, what: "Health export")
            defer { upload.remove() }
            let report = try await healthImport.importFile(at: upload.url, name: upload.filename ?? "the upload", account: account)
            return JSONResponse(HealthImportView(report))
        }
        group.get("tracker/goals") { _, context in
            let account = try context.requireIdentity().account
            return JSONResponse(GoalWeekList(goals: try await tracker.goalWeeks(account: account).map(GoalWeekView.init)))
        }
        group.get("tracker/metrics") { _, context in
            let account = try context.requireIdentity().account
            return JSONResponse(MetricList(metrics: try await tracker.metrics(account: account)))
        }
        group.get("tracker/entries") { request, context in
            let account = try context.requireIdentity().account
            let query = request.uri.queryParameters
            let from = try Self.instant(query.get("from"), name: "from")
            let to = try Self.instant(query.get("to"), name: "to")
            let entries = try await tracker.entries(account: account, metric: query.get("metric"), from: from, to: to)
            return JSONResponse(TrackerEntryList(entries: entries.map(TrackerEntryView.init)))
        }
        group.post("tracker/entries") { request, context -> Response in
            let account = try context.requireIdentity().account
            let draft = try await request.decodeJSON(as: TrackerEntryDraft.self)
            let entry = try await tracker.add(draft, account: account)
            return try JSONResponse(TrackerEntryView(entry), status: .created).response(from: request, context: context)
        }
        group.get("tracker/entries/{id}") { _, context in
            let account = try context.requireIdentity().account
            return JSONResponse(TrackerEntryView(try await tracker.entry(id: try Self.id(context), account: account)))
        }
        group.put("tracker/entries/{id}") { request, context in
            let account = try context.requireIdentity().account
            let id = try Self.id(context)
            let draft = try await request.decodeJSON(as: TrackerEntryDraft.self)
            return JSONResponse(TrackerEntryView(try await tracker.update(id: id, draft, account: account)))
        }
        group.delete("tracker/entries/{id}") { _, context -> Response in
            let account = try context.requireIdentity().account
            try await tracker.remove(id: try Self.id(context), account: account)
            return Response(status: .noContent)
        }
        group.get("tracker/summary") { request, context in
            let account = try context.requireIdentity().account
            let query = request.uri.queryParameters
            guard let metric = query.get("metric") else {
                throw APIError.badRequest("invalid_query", "'metric' is required: sleep, exercise or the name of a measure you track.")
            }
            let periodText = query.get("period") ?? TrackerPeriod.week.rawValue
            guard let period = TrackerPeriod(rawValue: periodText) else { throw Tracker.Problem.period(periodText) }
            var count: Int?
            if let countText = query.get("count") {
                guard let parsed = Int(countText) else {
                    throw APIError.badRequest("invalid_query", "'count' must be a whole number from 1 to \(Tracker.countLimit).")
                }
                count = parsed
            }
            return JSONResponse(TrackerSummaryView(try await tracker.summary(account: account, metric: metric, period: period, count: count)))
        }
    }

    static func id(_ context: JadwalRequestContext) throws -> UUID {
        let text = try context.parameters.require("id")
        guard let id = UUID(uuidString: text) else { throw Tracker.Problem.notFound(id: text) }
        return id
    }

    static func instant(_ text: String?, name: String) throws -> Date? {
        guard let text else { return nil }
        guard let date = Date(iso8601Instant: text) else {
            throw APIError.badRequest("invalid_query", "'\(name)' must be an instant such as 2026-09-22T00:00:00Z, not '\(text)'.")
        }
        return date
    }
}

package struct TrackerEntryList: Encodable, Sendable {
    package let entries: [TrackerEntryView]
}

package struct TrackerEntryView: Encodable, Sendable {
    package let id: String
    package let metric: String
    package let start: Date
    package let end: Date?
    package let value: Double
    package let unit: String
    package let kind: String?
    package let note: String?
    package let createdAt: Date
    package let updatedAt: Date
    /// `apple-health` or `plan` when not entered by hand.
    package let source: String?
    package let goalId: String?
    package let planItemId: String?
    package let outcome: String?

    package init(_ entry: TrackerEntry) {
        source = entry.source?.rawValue
        goalId = entry.goalID
        planItemId = entry.planItemID
        outcome = entry.outcome?.rawValue
        id = entry.id.uuidString.lowercased()
        metric = entry.metric
        start = entry.start
        end = entry.end
        value = entry.value
        unit = entry.unit
        kind = entry.kind
        note = entry.note
        createdAt = entry.createdAt
        updatedAt = entry.updatedAt
    }
}

package struct TrackerSummaryView: Encodable, Sendable {
    package struct BucketView: Encodable, Sendable {
        package let date: String
        package let start: Date
        package let end: Date
        package let total: Double
        package let count: Int
        package let average: Double?
    }
    package struct StreakView: Encodable, Sendable {
        package let current: Int
        package let longest: Int
    }

    package let metric: String
    package let unit: String
    package let period: String
    package let buckets: [BucketView]
    package let streak: StreakView

    package init(_ summary: TrackerSummary) {
        metric = summary.metric
        unit = summary.unit
        period = summary.period.rawValue
        buckets = summary.buckets.map {
            BucketView(date: $0.date, start: $0.range.start, end: $0.range.end, total: $0.total, count: $0.count, average: $0.average)
        }
        streak = StreakView(current: summary.currentStreak, longest: summary.longestStreak)
    }
}

/// What an Apple Health import read and did.
package struct HealthImportView: Encodable, Sendable {
    package struct Problem: Encodable, Sendable {
        let line: Int
        let reason: String
    }

    let file: String
    let bytes: Int64
    let records: Int
    let sleepSamples: Int
    let nights: Int
    let workouts: Int
    let added: Int
    let replaced: Int
    let unchanged: Int
    let exportDate: Date?
    let problemCount: Int
    /// The first 200.
    let problems: [Problem]

    package init(_ report: HealthImport.Report) {
        file = report.file
        bytes = report.bytes
        records = report.records
        sleepSamples = report.sleepSamples
        nights = report.nights
        workouts = report.workouts
        added = report.added
        replaced = report.replaced
        unchanged = report.unchanged
        exportDate = report.exportDate
        problemCount = report.problemCount
        problems = report.problems.prefix(200).map { Problem(line: $0.line, reason: $0.reason) }
    }
}

package struct GoalWeekList: Encodable, Sendable {
    package let goals: [GoalWeekView]
}

/// A goal's week: sessions done and skipped against its target.
package struct GoalWeekView: Encodable, Sendable {
    let goalId: String
    let title: String
    let week: String
    let done: Int
    let skipped: Int
    let target: Int
    let met: Bool

    package init(_ week: GoalWeek) {
        goalId = week.goal.id
        title = week.goal.title
        self.week = week.week
        done = week.done
        skipped = week.skipped
        target = week.target
        met = week.met
    }
}

package struct MetricList: Encodable, Sendable {
    package let metrics: [String]
}
