import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP
import Scheduling

/// `/api/v1/routines`: daily routines, each one recurring event in the Routine calendar that
/// phones sync. A routine of kind `sleep` also sets the hours no slot is suggested in.
package struct RoutineRoutes: Sendable {
    package let routines: RoutineCalendar

    package init(routines: RoutineCalendar) {
        self.routines = routines
    }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("routines") { _, context in
            let account = try context.requireIdentity().account
            let (routines, others) = try await routines.list(account: account)
            return JSONResponse(RoutineList(
                routines: routines.map(RoutineView.init),
                otherEvents: others.map { OtherEventView(name: $0.objectName, title: $0.title, reason: $0.reason) }))
        }
        group.post("routines") { request, context -> Response in
            let account = try context.requireIdentity().account
            let draft = try await request.decodeJSON(as: RoutineDraft.self)
            let saved = try await routines.create(draft, account: account)
            return try JSONResponse(RoutineView(saved), status: .created).response(from: request, context: context)
        }
        group.get("routines/{id}") { _, context in
            let account = try context.requireIdentity().account
            let id = try context.parameters.require("id")
            return JSONResponse(RoutineView(try await routines.routine(id: id, account: account)))
        }
        group.put("routines/{id}") { request, context in
            let account = try context.requireIdentity().account
            let id = try context.parameters.require("id")
            let draft = try await request.decodeJSON(as: RoutineDraft.self)
            let ifMatch = request.headers[.ifMatch]
            return JSONResponse(RoutineView(try await routines.update(id: id, draft, account: account, ifMatch: ifMatch)))
        }
        group.delete("routines/{id}") { request, context -> Response in
            let account = try context.requireIdentity().account
            let id = try context.parameters.require("id")
            let ifMatch = request.headers[.ifMatch]
            try await routines.delete(id: id, account: account, ifMatch: ifMatch)
            return Response(status: .noContent)
        }
    }
}

package struct FieldDetails: Encodable, Sendable {
    package let field: String
}

package struct RoutineList: Encodable, Sendable {
    package let routines: [RoutineView]
    /// Events in the Routine calendar a routine cannot describe, and why.
    package let otherEvents: [OtherEventView]
}

package struct OtherEventView: Encodable, Sendable {
    package let name: String
    package let title: String?
    package let reason: String
}

package struct RoutineView: Encodable, Sendable {
    package let id: String
    package let name: String
    package let start: String
    package let end: String
    package let days: [Int]
    package let reminderMinutes: Int?
    package let kind: RoutineKind
    package let timeZone: String
    /// The event's UID and ETag, as CalDAV clients see it (send the ETag as If-Match to edit).
    package let uid: String
    package let etag: String
    package let rrule: String

    package init(_ stored: StoredRoutine) {
        let routine = stored.fields.routine
        id = stored.id
        name = routine.name
        start = routine.start.description
        end = routine.end.description
        days = routine.days.numbers
        reminderMinutes = routine.reminderMinutes
        kind = stored.fields.kind
        timeZone = stored.fields.timeZone
        uid = stored.uid
        etag = stored.etag
        rrule = routine.recurrence.rule
    }
}
