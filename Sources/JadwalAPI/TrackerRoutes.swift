import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP
import Scheduling

/// `/api/v1/tracker`: sleep, exercise and custom measures (`entries`), and their progress by
/// day, week, month or year with streaks (`summary?metric=sleep&period=week`).
package struct TrackerRoutes: Sendable {
    package let tracker: Tracker

    package init(tracker: Tracker) {
        self.tracker = tracker
    }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
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

    package init(_ entry: TrackerEntry) {
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
