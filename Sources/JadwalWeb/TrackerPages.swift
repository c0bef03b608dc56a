import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP
import Scheduling

/// The tracker, `/tracker`: the goals' week, a metric's progress by day, week, month or year as a
/// server-drawn chart with the same numbers as a table, streaks, to-dos done per week, entries
/// added and removed by hand, and Apple Health's export uploaded. Everything goes through
/// ``Tracker`` and ``HealthImport``, as the JSON API's routes do.
package enum TrackerPages {
    package static let root = "/tracker"

    /// The three add forms share one route; `form` says which, and its fields are prefixed.
    package struct EntryForm: Decodable {
        package var form: String?
        package var bedtime: String?
        package var wake: String?
        package var kind: String?
        package var minutes: String?
        package var at: String?
        package var metric: String?
        package var value: String?
        package var unit: String?

        /// The entry the form describes; a number that is not one is said beside its field here.
        func draft() throws(FieldProblem) -> TrackerEntryDraft {
            func text(_ value: String?) -> String? {
                let trimmed = (value ?? "").trimmingCharacters(in: .whitespaces)
                return trimmed.isEmpty ? nil : trimmed
            }
            switch form {
            case "sleep":
                return TrackerEntryDraft(metric: Tracker.sleep, bedtime: text(bedtime), wake: text(wake))
            case "exercise":
                var count: Int?
                if let typed = text(minutes) {
                    guard let number = Int(typed) else { throw FieldProblem(field: "exerciseMinutes", key: "trackerErrorNumber") }
                    count = number
                }
                return TrackerEntryDraft(metric: Tracker.exercise, kind: text(kind), minutes: count, at: text(at))
            default:
                var number: Double?
                if let typed = text(value) {
                    guard let parsed = Double(typed.replacingOccurrences(of: ",", with: ".")) else {
                        throw FieldProblem(field: "measureValue", key: "trackerErrorNumber")
                    }
                    number = parsed
                }
                return TrackerEntryDraft(metric: text(metric) ?? "", at: text(at), value: number, unit: text(unit))
            }
        }
    }



    /// How a metric's periods are drawn: a night's average for sleep and for measures (a weight),
    /// the total for time spent and to-dos done.
    static func usesAverage(metric: String, unit: String) -> Bool {
        metric == Tracker.sleep || !(unit == "min" || metric == Tracker.tasksMetric)
    }
}

extension WebRoutes {
    package func addTrackerPages(to group: RouterGroup<JadwalRequestContext>) {
        group.get("tracker") { request, context -> Response in
            try await trackerPage(request, context)
        }
        group.post("tracker/entries") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(TrackerPages.EntryForm.self)
            let problem: FieldProblem
            do {
                _ = try await tracker.add(try form.draft(), account: account)
                return WebPage.redirect(TrackerPages.root + "?added=1#entries")
            } catch let found as FieldProblem {
                problem = found
            } catch let refused as Tracker.Problem {
                problem = FieldProblem(refused, form: form.form ?? "measure")
            }
            let texts = assets.texts(account.language)
            return try await trackerPage(request, context, form: form, errors: [problem.field: texts.text(problem.key)])
        }
        group.post("tracker/entries/{id}/delete") { _, context -> Response in
            let account = try context.requireIdentity().account
            if let id = UUID(uuidString: try context.parameters.require("id")) {
                do { try await tracker.remove(id: id, account: account) } catch is Tracker.Problem {
                    // Removed already (another tab): the page shows what is left.
                }
            }
            return WebPage.redirect(TrackerPages.root + "#entries")
        }
        // The export as a multipart form (the middleware checks the token in the action URL),
        // streamed to a temporary file and read by the API's own import.
        group.post("tracker/import") { request, context -> Response in
            let account = try context.requireIdentity().account
            let texts = assets.texts(account.language)
            do {
                let upload = try await FileUpload.receive(request, limit: healthImportLimit, what: "Health export")
                defer { upload.remove() }
                let report = try await healthImport.importFile(at: upload.url, name: upload.filename ?? "export", account: account)
                let summary = texts.text("trackerImported", [
                    "nights": String(report.nights), "workouts": String(report.workouts), "added": String(report.added),
                    "unchanged": String(report.unchanged), "replaced": String(report.replaced),
                ])
                let problems = report.problems.prefix(20).map { texts.text("trackerImportLine", ["line": String($0.line), "reason": $0.reason]) }
                return try await trackerPage(request, context, imported: ["summary": summary, "problems": problems, "hasProblems": !problems.isEmpty,
                                                                           "more": report.problemCount > problems.count ? String(report.problemCount) : ""])
            } catch let problem as HealthImport.Problem {
                let message: String
                if case .malformed(let file, let line, let reason) = problem {
                    message = texts.text("trackerImportMalformed", ["file": file, "line": String(line), "reason": reason])
                } else {
                    message = texts.text("trackerImportFailed", ["reason": problem.description])
                }
                return try await trackerPage(request, context, status: .unprocessableContent, importError: message)
            } catch let error as APIError {
                return try await trackerPage(request, context, status: error.status, importError: error.message)
            }
        }
    }

    private func trackerPage(_ request: Request, _ context: JadwalRequestContext, form: TrackerPages.EntryForm? = nil, errors: [String: String] = [:],
                             status: HTTPResponse.Status? = nil, imported: [String: Any]? = nil, importError: String? = nil) async throws -> Response {
        let account = try context.requireIdentity().account
        let viewer = try await viewer(request, context)
        let texts = assets.texts(viewer.language)
        let zone = TimeZone(identifier: account.timeZone) ?? .gmt
        let query = request.uri.queryParameters
        let metrics = try await tracker.metrics(account: account)
        var choices = [Tracker.sleep, Tracker.exercise, Tracker.tasksMetric]
        for metric in metrics where !choices.contains(metric) { choices.append(metric) }
        let metric = query.get("metric").flatMap { choices.contains($0) ? $0 : nil } ?? metrics.first ?? Tracker.sleep
        let period = query.get("period").flatMap(TrackerPeriod.init(rawValue:)) ?? .week
        let text = NotificationText(account: account)

        let summary = try await tracker.summary(account: account, metric: metric, period: period)
        let chart = trackerChart(summary, id: "chart-metric", texts: texts, language: account.language, zone: zone)
        let tasks = try await tracker.summary(account: account, metric: Tracker.tasksMetric, period: .week, count: 12)
        let tasksChart = trackerChart(tasks, id: "chart-tasks", texts: texts, language: account.language, zone: zone)
        let weeks = try await tracker.goalWeeks(account: account)
        let now = clock.now
        let entries = try await tracker.entries(account: account, metric: nil, from: now.addingTimeInterval(-30 * 86_400), to: nil)
        let formats = WebFormats.shared(language: account.language, zone: zone)

        func value(_ entry: TrackerEntry) -> String {
            if entry.outcome == .skipped { return texts.text("trackerSkipped") }
            return entry.unit == "min" ? text.duration(minutes: Int(entry.value.rounded())) : "\(Self.number(entry.value)) \(entry.unit)"
        }
        var page: [String: Any] = [
            "goals": weeks.map { week -> [String: Any] in
                var view: [String: Any] = [
                    "title": week.goal.title, "done": min(week.done, week.target), "target": week.target, "met": week.met,
                    "progress": texts.text("trackerGoalProgress", ["done": String(week.done), "target": String(week.target)]),
                ]
                if week.skipped > 0 { view["skipped"] = texts.text("trackerGoalSkipped", ["count": String(week.skipped)]) }
                return view
            },
            "hasGoals": !weeks.isEmpty,
            "metrics": choices.map { ["value": $0, "label": text.metricName($0), "selected": $0 == metric] as [String: Any] },
            "periods": TrackerPeriod.allCases.map { ["value": $0.rawValue, "label": texts.text("trackerPeriod_\($0.rawValue)"), "checked": $0 == period] as [String: Any] },
            "chart": chart.svg, "rows": chart.rows, "metricName": text.metricName(metric),
            "streak": texts.text("trackerStreak", ["current": String(summary.currentStreak), "longest": String(summary.longestStreak)]),
            "tasksChart": tasksChart.svg, "tasksRows": tasksChart.rows,
            "tasksStreak": texts.text("trackerStreak", ["current": String(tasks.currentStreak), "longest": String(tasks.longestStreak)]),
            "entries": entries.reversed().prefix(60).map { entry -> [String: Any] in
                var view: [String: Any] = [
                    "when": formats.shortDay(formats.localDay(entry.start)) + " " + formats.time(entry.start),
                    "metric": text.metricName(entry.metric) + (entry.kind.map { " (\($0))" } ?? ""),
                    "value": value(entry), "delete": TrackerPages.root + "/entries/" + entry.id.uuidString.lowercased() + "/delete",
                ]
                if let source = entry.source { view["source"] = texts.text("trackerSource_\(source.rawValue)") }
                return view
            },
            "hasEntries": !entries.isEmpty,
            "added": query.get("added") != nil,
            "form": [
                "bedtime": form?.bedtime ?? "", "wake": form?.wake ?? "", "kind": form?.kind ?? "", "minutes": form?.minutes ?? "",
                "at": form?.at ?? "", "metric": form?.metric ?? "", "value": form?.value ?? "", "unit": form?.unit ?? "",
            ],
            "errors": errors, "hasErrors": !errors.isEmpty,
            "importAction": "/tracker/import?_csrf=" + (viewer.csrf ?? ""),
            "healthHint": texts.text("trackerHealthHint", ["limit": String(healthImportLimit >> 20)]),
        ]
        if let imported { page["imported"] = imported }
        if let importError { page["importError"] = importError }
        return WebPage(template: "tracker", title: texts.text("trackerTitle"), page: page,
                       status: status ?? (errors.isEmpty ? .ok : .unprocessableContent), stylesheets: ["tasks.css"])
            .response(assets, viewer: viewer)
    }

    /// A summary as a chart and as table rows.
    private func trackerChart(_ summary: TrackerSummary, id: String, texts: [String: String], language: Language, zone: TimeZone)
        -> (svg: String, rows: [[String: Any]]) {
        let text = NotificationText(language: language, timeZone: zone)
        let average = TrackerPages.usesAverage(metric: summary.metric, unit: summary.unit)
        func shown(_ value: Double) -> String {
            summary.unit == "min" ? text.duration(minutes: Int(value.rounded())) : Self.number(value) + (summary.unit.isEmpty ? "" : " " + summary.unit)
        }
        let locale = Locale(identifier: language == .arabic ? "ar" : "en-GB")
        func formatter(_ template: String) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = locale
            formatter.timeZone = zone
            formatter.setLocalizedDateFormatFromTemplate(template)
            return formatter
        }
        let (short, long): (DateFormatter, DateFormatter) = switch summary.period {
        case .day: (formatter("EEEd"), formatter("EEEEdMMMM"))
        case .week: (formatter("dMMM"), formatter("dMMMMy"))
        case .month: (formatter("MMM"), formatter("MMMMy"))
        case .year: (formatter("y"), formatter("y"))
        }
        let now = clock.now
        let bars = summary.buckets.map { bucket -> TrackerChart.Bar in
            let value = average ? bucket.average ?? 0 : bucket.total
            let label = summary.period == .week ? texts.text("trackerWeekOf", ["day": long.string(from: bucket.range.start)]) : long.string(from: bucket.range.start)
            return TrackerChart.Bar(label: short.string(from: bucket.range.start), longLabel: label, value: value,
                                    text: bucket.count == 0 ? texts.text("trackerNothing") : shown(value), current: bucket.range.contains(now))
        }
        let name = text.metricName(summary.metric)
        let how = texts.text(average ? "trackerAverageBy_\(summary.period.rawValue)" : "trackerTotalBy_\(summary.period.rawValue)")
        let best = bars.filter { $0.value > 0 }.max { $0.value < $1.value }
        var description = texts.text("trackerChartDescription", ["metric": name, "how": how, "count": String(bars.count)])
        if let best { description += " " + texts.text("trackerChartHighest", ["value": best.text, "when": best.longLabel]) }
        if let last = bars.last { description += " " + texts.text("trackerChartLatest", ["value": last.text]) }
        let chart = TrackerChart(id: id, title: "\(name): \(how)", description: description, bars: bars, rightToLeft: language == .arabic,
                                 axisText: { value in summary.unit == "min" ? text.duration(minutes: Int(value.rounded())) : Self.number(value) })
        let rows = zip(summary.buckets, bars).reversed().map { bucket, bar -> [String: Any] in
            ["when": bar.longLabel, "value": bar.text, "count": String(bucket.count), "current": bar.current]
        }
        return (chart.svg, rows)
    }

    /// 72.5, 3, 0.25: at most two decimals, none when whole, Western digits as elsewhere.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
