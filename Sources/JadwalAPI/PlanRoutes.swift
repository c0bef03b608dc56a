import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP
import Scheduling

/// `/api/v1/plan`: the two-week plan. `POST plan/proposals` plans afresh and `GET` lists what
/// waits; each proposal is accepted (it becomes an event in the Goals calendar) or rejected, or
/// all are accepted at once. `plan/learning` is what the planner learned from those answers;
/// `plan/questionnaire` the answers that steer it.
package struct PlanRoutes: Sendable {
    package let planning: TwoWeekPlanning

    package init(planning: TwoWeekPlanning) {
        self.planning = planning
    }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.post("plan/proposals") { _, context in
            let account = try context.requireIdentity().account
            return JSONResponse(PlanView(try await planning.propose(account: account), language: account.reasonLanguage))
        }
        // The last plan: when and why it was made, and the to-dos it could not place (still open).
        group.get("plan") { _, context in
            let account = try context.requireIdentity().account
            return JSONResponse(LastPlanView(try await planning.lastPlan(account: account)))
        }
        group.get("plan/proposals") { request, context in
            let account = try context.requireIdentity().account
            let stateText = request.uri.queryParameters.get("state") ?? PlanItem.State.proposed.rawValue
            let states: Set<PlanItem.State>
            if stateText == "all" {
                states = Set(PlanItem.State.allCases)
            } else if let state = PlanItem.State(rawValue: stateText) {
                states = [state]
            } else {
                throw APIError.badRequest("invalid_query", "'state' is proposed (the default), accepted, rejected or all, not '\(stateText)'.")
            }
            let items = try await planning.items(account: account, states: states)
            let outcomes = try await planning.outcomes(account: account)
            return JSONResponse(PlanItemList(items: items.map { PlanItemView($0, language: account.reasonLanguage, outcome: outcomes[$0.id]) }))
        }
        group.get("plan/proposals/{id}") { _, context in
            let account = try context.requireIdentity().account
            return JSONResponse(PlanItemView(try await planning.item(id: try Self.id(context), account: account), language: account.reasonLanguage))
        }
        group.post("plan/proposals/accept-all") { _, context in
            let account = try context.requireIdentity().account
            let outcome = try await planning.acceptAll(account: account)
            return JSONResponse(AcceptAllView(
                accepted: outcome.accepted.map { PlanItemView($0, language: account.reasonLanguage) },
                refused: outcome.refused.map { refusal in
                    let answer = APIError(refusal)
                    return RefusedView(id: refusal.id, code: answer.code, message: answer.message)
                }))
        }
        group.post("plan/proposals/{id}/accept") { _, context in
            let account = try context.requireIdentity().account
            return JSONResponse(PlanItemView(try await planning.accept(id: try Self.id(context), account: account), language: account.reasonLanguage))
        }
        group.post("plan/proposals/{id}/reject") { _, context in
            let account = try context.requireIdentity().account
            return JSONResponse(PlanItemView(try await planning.reject(id: try Self.id(context), account: account), language: account.reasonLanguage))
        }
        // An accepted session that has begun: done (optionally with the minutes done) or skipped.
        for outcome in TrackerEntry.Outcome.allCases {
            group.post("plan/proposals/{id}/\(outcome.rawValue)") { request, context in
                let account = try context.requireIdentity().account
                var minutes: Int?
                if outcome == .done, let length = request.headers[.contentLength].flatMap(Int.init), length > 0 {
                    minutes = try await request.decodeJSON(as: DoneBody.self).minutes
                }
                let marked = try await planning.mark(id: try Self.id(context), outcome, minutes: minutes, account: account)
                return JSONResponse(MarkedView(item: PlanItemView(marked.item, language: account.reasonLanguage, outcome: marked.entry.outcome),
                                               entry: TrackerEntryView(marked.entry)))
            }
        }
        group.delete("plan/learning") { request, context -> Response in
            let account = try context.requireIdentity().account
            try await planning.forgetLearning(account: account, goalID: request.uri.queryParameters.get("goal"))
            return Response(status: .noContent)
        }
        group.get("plan/questionnaire") { _, context in
            let account = try context.requireIdentity().account
            let (answers, savedAt) = try await planning.questionnaire(account: account)
            return JSONResponse(QuestionnaireView(answers: answers, savedAt: savedAt))
        }
        // Every question may be left out; `{}` skips them all (and says the questionnaire was seen).
        group.put("plan/questionnaire") { request, context in
            let account = try context.requireIdentity().account
            let answers = try await request.decodeJSON(as: PlannerAnswers.self)
            _ = try await planning.saveAnswers(answers, account: account)
            let (saved, savedAt) = try await planning.questionnaire(account: account)
            return JSONResponse(QuestionnaireView(answers: saved, savedAt: savedAt))
        }
    }

    /// A proposal's id (`goal:<goal id>@<unix start>`), whether or not the client escaped its `:` and `@`.
    static func id(_ context: JadwalRequestContext) throws -> String {
        let raw = try context.parameters.require("id")
        return raw.removingPercentEncoding ?? raw
    }
}

extension TwoWeekPlanning.Refusal {
    var id: String {
        switch self {
        case .notFound(let id), .alreadyDecided(let id, _), .started(let id), .slotTaken(let id, _), .notASession(let id, _), .notStarted(let id, _): id
        case .minutes: ""
        }
    }
}

package struct PlanView: Encodable, Sendable {
    package struct ShortfallView: Encodable, Sendable {
        package let goalId: String
        package let periodStart: Date
        package let wanted: Int
        package let proposed: Int
    }
    package struct HorizonView: Encodable, Sendable {
        package let start: Date
        package let end: Date
    }

    package let intensity: String
    package let horizon: HorizonView?
    package let proposals: [PlanItemView]
    package let accepted: [PlanItemView]
    package let shortfalls: [ShortfallView]
    /// To-dos that do not fit before they are due, as `POST /api/v1/tasks/plan` says it.
    package let unplacedTasks: [TaskRoutes.PlanView.UnplacedView]

    package init(_ plan: TwoWeekPlanning.Plan, language: ReasonLanguage) {
        intensity = plan.intensity.rawValue
        horizon = plan.horizon.map { HorizonView(start: $0.start, end: $0.end) }
        proposals = plan.proposals.map { PlanItemView($0, language: language) }
        accepted = plan.accepted.map { PlanItemView($0, language: language) }
        shortfalls = plan.shortfalls.map { ShortfallView(goalId: $0.goalID, periodStart: $0.periodStart, wanted: $0.wanted, proposed: $0.proposed) }
        unplacedTasks = plan.unplacedTasks.map(TaskRoutes.unplacedView)
    }
}

/// `GET /api/v1/plan`: the last plan made (`plannedAt` and `trigger` null when none was).
package struct LastPlanView: Encodable, Sendable {
    package let plannedAt: Date?
    /// `asked`, `weekly` or `replan`.
    package let trigger: String?
    package let weeklyAt: Date?
    package let unplacedTasks: [TaskRoutes.PlanView.UnplacedView]

    package init(_ last: (run: PlanRun, unplacedTasks: [StoredUnplacedTask])?) {
        plannedAt = last?.run.plannedAt
        trigger = last?.run.trigger.rawValue
        weeklyAt = last?.run.weeklyAt
        unplacedTasks = (last?.unplacedTasks ?? []).map { TaskRoutes.unplacedView(id: $0.taskID, title: $0.title, reason: $0.reason) }
    }

    private enum CodingKeys: String, CodingKey { case plannedAt, trigger, weeklyAt, unplacedTasks }

    /// Nulls are written, so a client sees every key.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(plannedAt, forKey: .plannedAt)
        try c.encode(trigger, forKey: .trigger)
        try c.encode(weeklyAt, forKey: .weeklyAt)
        try c.encode(unplacedTasks, forKey: .unplacedTasks)
    }
}

package struct PlanItemList: Encodable, Sendable {
    package let items: [PlanItemView]
}

/// One item of the plan: the reason worded in the person's language, and as values.
package struct PlanItemView: Encodable, Sendable {
    package struct EventView: Encodable, Sendable {
        package let calendarId: String
        package let name: String
    }

    package let id: String
    /// `goal` (a session), `task` (time for a to-do) or `wind-down` (before bed, after short nights).
    package let kind: String
    package let goalId: String?
    /// The to-do's UID, for a to-do's block.
    package let taskId: String?
    package let title: String
    package let start: Date
    package let end: Date
    package let state: String
    package let reason: String
    package let reasonFactors: ProposalReason
    package let event: EventView?
    package let decidedAt: Date?
    /// `done` or `skipped` once an accepted session is marked.
    package let outcome: String?

    package init(_ item: PlanItem, language: ReasonLanguage, outcome: TrackerEntry.Outcome? = nil) {
        id = item.id
        switch item.subject {
        case .goal(let id): (kind, goalId, taskId) = ("goal", id, nil)
        case .task(let id): (kind, goalId, taskId) = ("task", nil, id)
        case .windDown(let id): (kind, goalId, taskId) = ("wind-down", id, nil)
        }
        self.outcome = outcome?.rawValue
        title = item.title
        start = item.range.start
        end = item.range.end
        state = item.state.rawValue
        reason = item.reason.sentence(in: language)
        reasonFactors = item.reason
        event = item.event.map { EventView(calendarId: $0.calendarID.uuidString.lowercased(), name: $0.name) }
        decidedAt = item.decidedAt
    }
}

package struct AcceptAllView: Encodable, Sendable {
    package let accepted: [PlanItemView]
    package let refused: [RefusedView]
}

package struct RefusedView: Encodable, Sendable {
    package let id: String
    package let code: String
    package let message: String
}

package struct DoneBody: Decodable, Sendable {
    /// The minutes done, when not the session's length.
    package let minutes: Int?
}

package struct MarkedView: Encodable, Sendable {
    package let item: PlanItemView
    package let entry: TrackerEntryView
}

/// The questionnaire's answers with when they were saved (`null`: never answered nor skipped).
package struct QuestionnaireView: Encodable, Sendable {
    package let answers: PlannerAnswers
    package let savedAt: Date?

    private enum CodingKeys: String, CodingKey { case savedAt }

    package func encode(to encoder: any Encoder) throws {
        try answers.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(savedAt, forKey: .savedAt)
    }
}
