import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP
import Scheduling

/// Goals and the two-week plan on one page: the goals with a form to add one or change one
/// (`/plan?edit=<id>`), the proposals with their reasons, each accepted or rejected (or all
/// accepted), and the to-dos the last plan could not place, with why. Everything goes through
/// `Goals` and `TwoWeekPlanning`, as the JSON API's routes do.
package enum PlanPages {
    package static let root = "/plan"

    /// The categories the goal form offers, the default first: exercise and focus take the
    /// questionnaire's preferred times, sleep goals go over the night.
    package static let categories = ["other", "exercise", "focus", "sleep"]

    /// The goal form's fields, as posted (to add or to change a goal): the count is per week or
    /// per day (`per`), and the days are seven check boxes (`day1` = Monday … `day7` = Sunday;
    /// none ticked is every day).
    package struct GoalForm: Decodable {
        package var title: String?
        package var category: String?
        package var minutes: String?
        package var count: String?
        package var per: String?
        package var from: String?
        package var to: String?
        package var day1: String?
        package var day2: String?
        package var day3: String?
        package var day4: String?
        package var day5: String?
        package var day6: String?
        package var day7: String?

        var checkedDays: [Int] {
            [day1, day2, day3, day4, day5, day6, day7].enumerated().compactMap { $0.element == nil ? nil : $0.offset + 1 }
        }

        /// The goal this form describes; `Goals` checks it. A number that is not one is said
        /// beside its field here, in the form's own words.
        func draft() throws(FieldProblem) -> GoalDraft {
            func trimmed(_ text: String?) -> String { (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
            guard let minutes = Int(trimmed(minutes)) else { throw FieldProblem(field: "minutes", key: "planErrorNumber") }
            guard let count = Int(trimmed(count)) else { throw FieldProblem(field: "count", key: "planErrorNumber") }
            let days = checkedDays.isEmpty ? nil : (try? DaysOfWeek(checkedDays))?.iCalendarCodes
            let daily = trimmed(per) == "day"
            let category = trimmed(category)
            return GoalDraft(title: title ?? "", minutes: minutes, perWeek: daily ? nil : count, perDay: daily ? count : nil,
                             window: .init(from: trimmed(from), to: trimmed(to)), days: days, category: category.isEmpty ? nil : category)
        }

        /// The change this form makes to a goal: every field it shows (no day ticked is every
        /// day); what it does not show (a preferred time, a minimum gap set through the API) stays.
        func change() throws(FieldProblem) -> GoalChange {
            let draft = try draft()
            return GoalChange(title: draft.title, minutes: draft.minutes, perWeek: draft.perWeek, perDay: draft.perDay,
                              window: .init(from: draft.window.from, to: draft.window.to), days: .some(draft.days),
                              category: draft.category ?? "other")
        }
    }
}

extension PlanPages.GoalForm {
    /// The form showing a goal, to change it.
    init(_ goal: Goal) {
        let draft = GoalDraft(goal)
        let days = Set(goal.window.days.numbers)
        let all = days.count == 7
        func on(_ day: Int) -> String? { !all && days.contains(day) ? "on" : nil }
        self.init(title: draft.title, category: draft.category, minutes: String(draft.minutes), count: String(draft.perWeek ?? draft.perDay ?? 1),
                  per: draft.perDay == nil ? "week" : "day", from: draft.window.from, to: draft.window.to,
                  day1: on(1), day2: on(2), day3: on(3), day4: on(4), day5: on(5), day6: on(6), day7: on(7))
    }
}

extension WebRoutes {
    package func addPlanPages(to group: RouterGroup<JadwalRequestContext>) {
        group.get("plan") { request, context -> Response in
            // `?edit=<id>`: the form shows that goal, to change it (a goal gone meanwhile: a new one).
            if let id = request.uri.queryParameters.get("edit"), !id.isEmpty {
                let account = try context.requireIdentity().account
                if let stored = try? await goals.goal(id: id, account: account) {
                    return try await planPage(request, context, form: PlanPages.GoalForm(stored.goal), editing: stored.id)
                }
            }
            return try await planPage(request, context, form: PlanPages.GoalForm(minutes: "30", count: "3", per: "week", from: "06:00", to: "09:00"))
        }
        group.post("plan/goals/{id}") { request, context -> Response in
            let account = try context.requireIdentity().account
            let id = try context.parameters.require("id")
            let form = try context.form(PlanPages.GoalForm.self)
            let problem: FieldProblem
            do {
                _ = try await goals.update(id: id, try form.change(), account: account)
                return WebPage.redirect(PlanPages.root)
            } catch let found as FieldProblem {
                problem = found
            } catch Goals.Problem.notFound {
                // Deleted meanwhile (another tab): the page shows what is left.
                return WebPage.redirect(PlanPages.root)
            } catch let refused as Goals.Problem {
                problem = FieldProblem(refused)
            }
            let texts = assets.texts(account.language)
            return try await planPage(request, context, form: form, editing: id, errors: [problem.field: texts.text(problem.key, problem.values)])
        }
        group.post("plan/goals") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(PlanPages.GoalForm.self)
            let problem: FieldProblem
            do {
                _ = try await goals.create(try form.draft(), account: account)
                return WebPage.redirect(PlanPages.root)
            } catch let found as FieldProblem {
                problem = found
            } catch let refused as Goals.Problem {
                problem = FieldProblem(refused)
            }
            let texts = assets.texts(account.language)
            return try await planPage(request, context, form: form, errors: [problem.field: texts.text(problem.key, problem.values)])
        }
        group.post("plan/goals/{id}/delete") { _, context -> Response in
            let account = try context.requireIdentity().account
            do {
                try await goals.delete(id: try context.parameters.require("id"), account: account)
            } catch is Goals.Problem {
                // Deleted already (another tab): the page shows what is left.
            }
            return WebPage.redirect(PlanPages.root)
        }
        group.post("plan/propose") { _, context -> Response in
            _ = try await planning.propose(account: try context.requireIdentity().account)
            return WebPage.redirect(PlanPages.root + "#plan")
        }
        group.post("plan/accept-all") { _, context -> Response in
            let outcome = try await planning.acceptAll(account: try context.requireIdentity().account)
            return WebPage.redirect(PlanPages.root + (outcome.refused.isEmpty ? "" : "?taken=\(outcome.refused.count)") + "#plan")
        }
        for outcome in TrackerEntry.Outcome.allCases {
            group.post("plan/proposals/{id}/\(outcome.rawValue)") { _, context -> Response in
                let account = try context.requireIdentity().account
                let id = try context.parameters.require("id")
                do {
                    _ = try await planning.mark(id: id.removingPercentEncoding ?? id, outcome, account: account)
                } catch is TwoWeekPlanning.Refusal {
                    // Gone, or not begun yet: the page shows the sessions as they are now.
                }
                return WebPage.redirect(PlanPages.root + "#sessions")
            }
        }
        for answer in ["accept", "reject"] {
            group.post("plan/proposals/{id}/\(answer)") { _, context -> Response in
                let account = try context.requireIdentity().account
                let id = try context.parameters.require("id")
                let decoded = id.removingPercentEncoding ?? id
                do {
                    _ = answer == "accept"
                        ? try await planning.accept(id: decoded, account: account)
                        : try await planning.reject(id: decoded, account: account)
                } catch let refusal as TwoWeekPlanning.Refusal {
                    if case .slotTaken = refusal { return WebPage.redirect(PlanPages.root + "?taken=1#plan") }
                    // Answered already, gone, or begun: the page shows the plan as it is now.
                }
                return WebPage.redirect(PlanPages.root + "#plan")
            }
        }
    }

    private func planPage(_ request: Request, _ context: JadwalRequestContext, form: PlanPages.GoalForm, editing: String? = nil,
                          errors: [String: String] = [:]) async throws -> Response {
        let account = try context.requireIdentity().account
        let viewer = try await viewer(request, context)
        let texts = assets.texts(viewer.language)
        let zone = TimeZone(identifier: account.timeZone) ?? .gmt
        let formats = WebFormats.shared(language: account.language, zone: zone)
        let days = RoutinePageModel(language: account.language, texts: texts)
        let stored = try await goals.list(account: account)
        let titles = Dictionary(stored.map { ($0.id, $0.goal.title) }, uniquingKeysWith: { first, _ in first })
        let items = try await planning.items(account: account, states: [.proposed, .accepted])
        let outcomes = try await planning.outcomes(account: account)
        let now = clock.now
        let waiting = items.filter { $0.state == .proposed }
        let accepted = items.filter { $0.state == .accepted && $0.range.start > now }
        // Sessions of the last week that have begun: to be marked done or skipped.
        let begun = items.filter { item in
            guard item.state == .accepted, item.range.start <= now, item.range.end > now.addingTimeInterval(-7 * 86_400) else { return false }
            if case .goal = item.subject { return true }
            return false
        }.reversed()
        func view(_ item: PlanItem) -> [String: Any] {
            let path = PlanPages.root + "/proposals/" + WebPage.pathSegment(item.id)
            let kind: String? = switch item.subject {
            case .goal: nil
            case .task: texts.text("planKindTask")
            case .windDown: texts.text("planKindWindDown")
            }
            let outcome = outcomes[item.id]
            var fields: [String: Any] = [
                "title": item.goalID.flatMap { titles[$0] } ?? item.title,
                "when": formats.shortDay(formats.localDay(item.range.start)) + " " + formats.timeRange(item.range.start, item.range.end),
                "reason": item.reason.sentence(in: account.reasonLanguage), "accept": path + "/accept", "reject": path + "/reject",
                "done": path + "/done", "skipped": path + "/skipped", "isDone": outcome == .done, "isSkipped": outcome == .skipped,
            ]
            // Mustache shows a section for any string, even an empty one: only what is there is set.
            if let kind { fields["kind"] = kind }
            if let outcome { fields["outcome"] = texts.text("planOutcome_\(outcome.rawValue)") }
            return fields
        }
        let checked = Set(form.checkedDays)
        // The to-dos the last plan could not place (still open), with why, and when it was made.
        let last = try await planning.lastPlan(account: account)
        let taskWords = TaskPageModel(formats: formats, texts: texts, now: now)
        let unplaced = (last?.unplacedTasks ?? []).map { task -> [String: Any] in
            ["title": task.title.isEmpty ? texts.text("untitled") : task.title, "reason": taskWords.reason(task.reason)]
        }
        let category = form.category.flatMap { PlanPages.categories.contains($0) ? $0 : nil } ?? "other"
        var page: [String: Any] = [
            "goals": stored.map { goal -> [String: Any] in
                let g = goal.goal
                let count: String = switch g.target {
                case .perWeek(let n): texts.text("planPerWeek", ["count": String(n)])
                case .perDay(let n): texts.text("planPerDay", ["count": String(n)])
                }
                return [
                    "title": g.title, "summary": texts.text("planMinutes", ["minutes": String(g.minutesPerSession)]) + ", " + count,
                    "window": "\(days.time(g.window.start))–\(days.time(g.window.end))", "days": days.days(g.window.days),
                    "delete": PlanPages.root + "/goals/" + WebPage.pathSegment(goal.id) + "/delete",
                    "edit": PlanPages.root + "?edit=" + WebPage.pathSegment(goal.id) + "#goal-form",
                    "category": texts.text("planCategory_\(g.category.rawValue)"), "editing": goal.id == editing,
                ]
            },
            "hasGoals": !stored.isEmpty,
            "proposals": waiting.map(view), "hasProposals": !waiting.isEmpty,
            "accepted": accepted.map(view), "hasAccepted": !accepted.isEmpty,
            "sessions": begun.map(view), "hasSessions": !begun.isEmpty,
            "taken": request.uri.queryParameters.get("taken") != nil,
            "unplaced": unplaced, "hasUnplaced": !unplaced.isEmpty,
            "form": [
                "title": form.title ?? "", "minutes": form.minutes ?? "", "count": form.count ?? "", "from": form.from ?? "", "to": form.to ?? "",
                "perDay": form.per == "day",
                "days": (1...7).map { ["number": $0, "label": days.dayName($0), "checked": checked.contains($0)] as [String: Any] },
                "categories": PlanPages.categories.map { value in
                    ["value": value, "label": texts.text("planCategory_\(value)"), "selected": value == category] as [String: Any]
                },
                "action": editing.map { PlanPages.root + "/goals/" + WebPage.pathSegment($0) } ?? PlanPages.root + "/goals",
                "heading": texts.text(editing == nil ? "planAddGoal" : "planEditGoal"),
                "submit": texts.text(editing == nil ? "add" : "planSaveGoal"),
                "editing": editing != nil,
            ] as [String: Any],
            "errors": errors, "hasErrors": !errors.isEmpty,
        ]
        if let run = last?.run {
            page["planMade"] = texts.text("planMade_\(run.trigger.rawValue)", ["when": taskWords.when(run.plannedAt)])
        }
        return WebPage(
            template: "plan", title: texts.text("planTitle"), page: page, status: errors.isEmpty ? .ok : .unprocessableContent, stylesheets: ["tasks.css"]
        ).response(assets, viewer: viewer)
    }
}
