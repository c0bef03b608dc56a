import Foundation
import Hummingbird
import ICalendar
import JadwalCore
import JadwalHTTP
import Scheduling

/// Invitations to meetings: `/api/v1/invitations` (the invitee's list, their answer and their
/// proposal of another time) and `/api/v1/proposals` (the organizer's answer to a proposal).
/// Inviting is `attendees` on `POST /api/v1/calendars/{id}/events`; the rules are
/// `Invitations`' and the write's own scheduling, this only reads bodies and shapes answers.
/// `POST /api/v1/meeting-times` finds a time for a meeting with the people it invites (`MeetingTimes`).
package struct InvitationRoutes: Sendable {
    package let invitations: Invitations
    package let meetingTimes: MeetingTimes

    package init(invitations: Invitations, meetingTimes: MeetingTimes) {
        self.invitations = invitations
        self.meetingTimes = meetingTimes
    }

    struct MeetingTimesRequest: Decodable {
        let attendees: [String]
        let start: String
        let end: String
        /// The meeting's UID when it exists already: its own instances are not busy time.
        let uid: String?
        let count: Int?
    }

    struct MeetingTimesView: Encodable, Sendable {
        struct Period: Encodable, Sendable { let start: Date, end: Date }
        struct Person: Encodable, Sendable {
            let email: String
            let busyShown: Bool
            let busy: [Period]
        }
        let attendees: [Person]
        let suggestions: [SuggestionView]
    }

    struct ReplyRequest: Decodable {
        let partstat: String
    }

    struct CounterRequest: Decodable {
        let start: String
        let end: String
        let comment: String?
    }

    struct DeclineRequest: Decodable {
        let comment: String?
    }

    struct ProposalView: Encodable, Sendable {
        let start: Date
        let end: Date
        let comment: String
        let proposedAt: Date

        init(_ proposal: CounterProposal) {
            start = proposal.start
            end = proposal.end
            comment = proposal.comment
            proposedAt = proposal.proposedAt
        }
    }

    struct PersonView: Encodable, Sendable {
        let name: String
        let email: String
    }

    struct ClashView: Encodable, Sendable {
        let title: String
        let start: Date
        let end: Date
        let prayer: Bool
    }

    /// An invitation as the invitee sees it.
    struct InvitationView: Encodable, Sendable {
        let id: String
        let uid: String
        let title: String
        let start: Date?
        let end: Date?
        let allDay: Bool
        let recurring: Bool
        let organizer: PersonView
        /// Their answer: `needs-action`, `accepted`, `tentative` or `declined`.
        let partstat: String
        /// `active`, or `cancelled` (the meeting is off, or they were taken off it).
        let state: String
        /// Where their copy is, to read or edit it as an event.
        let calendarId: String?
        let objectName: String?
        /// What in their calendar takes the same time.
        let conflicts: [ClashView]
        let proposal: ProposalView?
        let updatedAt: Date

        init(_ received: Invitations.Received) {
            let invitation = received.invitation
            id = invitation.id.uuidString.lowercased()
            uid = invitation.uid
            title = invitation.summary
            start = invitation.start
            end = invitation.end
            allDay = invitation.allDay
            recurring = invitation.recurring
            organizer = PersonView(name: received.organizerName, email: received.organizerEmail.value)
            partstat = invitation.partstat.rawValue.lowercased()
            state = invitation.state.rawValue
            calendarId = received.calendarID?.uuidString.lowercased()
            objectName = received.objectName
            conflicts = received.clashes.map { ClashView(title: $0.title, start: $0.start, end: $0.end, prayer: $0.isPrayer) }
            proposal = invitation.proposal.map(ProposalView.init)
            updatedAt = invitation.updatedAt
        }
    }

    /// A proposal of another time, as the organizer sees it.
    struct ProposalEntry: Encodable, Sendable {
        let id: String
        let uid: String
        let title: String
        let start: Date?
        let end: Date?
        let attendee: PersonView
        let proposal: ProposalView
        let calendarId: String?
        let objectName: String?

        init(_ found: Invitations.Proposal) {
            id = found.invitation.id.uuidString.lowercased()
            uid = found.invitation.uid
            title = found.invitation.summary
            start = found.invitation.start
            end = found.invitation.end
            attendee = PersonView(name: found.attendeeName, email: found.invitation.attendeeEmail.value)
            proposal = ProposalView(found.proposal)
            calendarId = found.calendarID?.uuidString.lowercased()
            objectName = found.objectName
        }
    }

    struct InvitationList: Encodable, Sendable { let invitations: [InvitationView] }
    struct ProposalList: Encodable, Sendable { let proposals: [ProposalEntry] }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("invitations") { _, context in
            let account = try context.requireIdentity().account
            return JSONResponse(InvitationList(invitations: try await invitations.received(by: account).map(InvitationView.init)))
        }
        group.get("invitations/{id}") { _, context in
            let account = try context.requireIdentity().account
            return JSONResponse(InvitationView(try await invitations.received(id: try Self.id(context), by: account)))
        }
        group.post("invitations/{id}/reply") { request, context in
            let account = try context.requireIdentity().account
            let body = try await request.decodeJSON(as: ReplyRequest.self)
            let id = try Self.id(context)
            try await invitations.reply(id: id, by: account, status: try Invitations.answer(body.partstat))
            return JSONResponse(InvitationView(try await invitations.received(id: id, by: account)))
        }
        group.post("invitations/{id}/counter") { request, context in
            let account = try context.requireIdentity().account
            let body = try await request.decodeJSON(as: CounterRequest.self)
            let id = try Self.id(context)
            try await invitations.propose(
                id: id, by: account, start: try Self.instant(body.start, field: "start"), end: try Self.instant(body.end, field: "end"),
                comment: body.comment ?? "")
            return JSONResponse(InvitationView(try await invitations.received(id: id, by: account)))
        }
        group.post("meeting-times") { request, context in
            let account = try context.requireIdentity().account
            let body = try await request.decodeJSON(as: MeetingTimesRequest.self)
            let start = try Self.instant(body.start, field: "start"), end = try Self.instant(body.end, field: "end")
            guard let meeting = try? TimeRange(start: start, end: end) else { throw APIError(MeetingTimes.Problem.invalidLength) }
            let answer = try await meetingTimes.find(organizer: account, attendees: body.attendees, meeting: meeting, uid: body.uid, count: body.count ?? 5)
            return JSONResponse(MeetingTimesView(
                attendees: answer.people.map { person in
                    MeetingTimesView.Person(email: person.email, busyShown: person.busyShown, busy: person.busy.map { .init(start: $0.start, end: $0.end) })
                },
                suggestions: answer.slots.map { SuggestionView($0, language: account.language) }))
        }
        group.get("proposals") { _, context in
            let account = try context.requireIdentity().account
            return JSONResponse(ProposalList(proposals: try await invitations.proposals(for: account).map(ProposalEntry.init)))
        }
        group.post("proposals/{id}/accept") { _, context -> Response in
            let account = try context.requireIdentity().account
            try await invitations.acceptProposal(id: try Self.id(context), organizer: account)
            return Response(status: .noContent)
        }
        group.post("proposals/{id}/decline") { request, context -> Response in
            let account = try context.requireIdentity().account
            let body = try await request.decodeJSONIfPresent(as: DeclineRequest.self)
            try await invitations.declineProposal(id: try Self.id(context), organizer: account, comment: body?.comment ?? "")
            return Response(status: .noContent)
        }
    }

    static func id(_ context: JadwalRequestContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else {
            throw APIError.notFound("No invitation of yours with that ID.")
        }
        return id
    }

    /// An instant with its zone: `2026-11-23T10:00:00Z` or with an offset.
    static func instant(_ text: String, field: String) throws -> Date {
        guard let date = Date(iso8601Instant: text) else {
            throw APIError.badRequest("invalid_field", "Field '\(field)' must be an instant with its zone, such as 2026-11-23T10:00:00Z, not '\(text.prefix(40))'.")
        }
        return date
    }
}

extension APIError {
    package init(_ problem: MeetingTimes.Problem) {
        self = switch problem {
        case .noAttendees, .tooManyAttendees, .invalidAttendee: APIError.badRequest("invalid_attendees", problem.description.asSentence)
        case .invalidLength: APIError.badRequest("invalid_range", problem.description.asSentence)
        case .invalidCount: APIError.badRequest("invalid_field", "Field 'count': " + problem.description + ".")
        }
    }

    package init(_ problem: Invitations.Problem) {
        self = switch problem {
        case .notFound: APIError.notFound("No invitation of yours with that ID.")
        case .cancelled: APIError(.conflict, code: "invitation_cancelled", message: problem.description.asSentence)
        case .notAnAnswer: APIError.badRequest("invalid_field", "Field \(problem.description).")
        case .invalidProposal: APIError.badRequest("invalid_proposal", problem.description.asSentence)
        case .meetingGone: APIError(.gone, code: "meeting_gone", message: problem.description.asSentence)
        case .recurring: APIError(.unprocessableContent, code: "recurring_meeting", message: problem.description.asSentence)
        case .noProposal: APIError(.conflict, code: "no_proposal", message: problem.description.asSentence)
        case .linkUnknown: APIError.notFound(problem.description.asSentence)
        case .linkUsed: APIError(.conflict, code: "link_used", message: problem.description.asSentence)
        case .linkExpired: APIError(.gone, code: "link_expired", message: problem.description.asSentence)
        }
    }
}
