import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP
import Scheduling

/// `/api/v1/goals`: what a person wants to do regularly, which the two-week plan places
/// (`PlanRoutes`). The body is `GoalDraft`'s:
/// `{"title": "Exercise", "minutes": 45, "perWeek": 3, "window": {"from": "06:00", "to": "09:00"}}`.
package struct GoalRoutes: Sendable {
    package let goals: Goals

    package init(goals: Goals) {
        self.goals = goals
    }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("goals") { _, context in
            let account = try context.requireIdentity().account
            return JSONResponse(GoalList(goals: try await goals.list(account: account).map(GoalView.init)))
        }
        group.post("goals") { request, context -> Response in
            let account = try context.requireIdentity().account
            let draft = try await request.decodeJSON(as: GoalDraft.self)
            let saved = try await goals.create(draft, account: account)
            return try JSONResponse(GoalView(saved), status: .created).response(from: request, context: context)
        }
        group.get("goals/{id}") { _, context in
            let account = try context.requireIdentity().account
            return JSONResponse(GoalView(try await goals.goal(id: try context.parameters.require("id"), account: account)))
        }
        group.patch("goals/{id}") { request, context in
            let account = try context.requireIdentity().account
            let id = try context.parameters.require("id")
            let change = try await request.decodeJSON(as: GoalChange.self)
            return JSONResponse(GoalView(try await goals.update(id: id, change, account: account)))
        }
        group.delete("goals/{id}") { _, context -> Response in
            let account = try context.requireIdentity().account
            try await goals.delete(id: try context.parameters.require("id"), account: account)
            return Response(status: .noContent)
        }
    }
}

package struct GoalList: Encodable, Sendable {
    package let goals: [GoalView]
}

/// A goal in the shape it is sent, with its id and times.
package struct GoalView: Encodable, Sendable {
    package let id: String
    package let draft: GoalDraft
    package let createdAt: Date
    package let updatedAt: Date

    package init(_ stored: StoredGoal) {
        id = stored.id
        draft = GoalDraft(stored.goal)
        createdAt = stored.createdAt
        updatedAt = stored.updatedAt
    }

    private enum Keys: String, CodingKey { case id, createdAt, updatedAt }

    // The draft's fields sit beside the id, as they were sent.
    package func encode(to encoder: any Encoder) throws {
        try draft.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(id, forKey: .id)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}
