import Conversations
import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP
import Scheduling

// The one place the JSON API turns what Core refuses into answers: `{"error":{code,message}}`
// with the status a client can act on. Routes let a service's error travel; `CoreRefusals`, on
// every API route, maps it here. A route catches only to add what it alone knows (an object's
// name). A Core error with no case here is a 500, so a new `Problem` gets its answer here.

/// Maps Core's errors to the API's answers on the routes it is added to.
package struct CoreRefusals: RouterMiddleware {
    package typealias Context = JadwalRequestContext

    package init() {}

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            throw Self.answer(for: error) ?? error
        }
    }

    /// The API's answer to a Core error; nil for errors that are not a refusal.
    package static func answer(for error: any Error) -> (any Error)? {
        switch error {
        case let problem as AppPasswords.Problem: APIError(problem)
        case let problem as Calendars.Problem: APIError(problem)
        case let refusal as CalendarWrites.Refusal: APIError(refusal, name: "the object")
        case let problem as EventSeriesChanges.Problem: APIError(problem, name: "the object")
        case let taken as CalendarSlugTaken: APIError(taken)
        case let refusal as ConflictResolution.Refusal: APIError(refusal)
        case let problem as ConflictSettingsChange.Problem: APIError(problem)
        case let refusal as RoutineCalendar.Refusal: APIError(refusal)
        case let problem as Chats.Problem: APIError(problem)
        case let problem as ChatImportProblem: ChatAPIError(problem)
        case let problem as MessageCipher.Problem: ChatAPIError(problem)
        case let problem as NotificationSettingsChange.Problem: APIError(problem)
        case let problem as PrayerPreferences.Problem: APIError(problem)
        case let problem as PrayerSettingsChange.Problem: APIError(problem)
        case let problem as ProfileChange.Problem: APIError(problem)
        case let failure as SignIn.Failure: APIError(failure)
        case let problem as CalendarSubscriptions.Problem: APIError(problem)
        case let problem as CalDAVAccounts.Problem: APIError(problem)
        case let problem as CalendarTransfer.Problem: APIError(problem)
        case let problem as Goals.Problem: APIError(problem)
        case let refusal as TwoWeekPlanning.Refusal: APIError(refusal)
        case let problem as PlannerAnswers.Problem: APIError(problem)
        case let problem as Tracker.Problem: APIError(problem)
        case let problem as HealthImport.Problem: APIError(problem)
        case let problem as WhatsAppLinks.Problem: APIError(problem)
        case let problem as CalendarShares.Problem: APIError(problem)
        case let problem as WebPushSubscriptions.Problem: APIError(problem)
        case let problem as PrayerAlertChange.Problem: APIError(problem)
        case let problem as Tasks.CompletionProblem: APIError(problem)
        case let problem as UpcomingReminders.Problem: APIError(problem)
        case let problem as EmailChanges.Problem: APIError(problem)
        case let problem as AccountDeletion.Problem: APIError(problem)
        case let problem as Invitations.Problem: APIError(problem)
        case let problem as MeetingTimes.Problem: APIError(problem)
        default: nil
        }
    }
}

extension APIError {
    package init(_ problem: AppPasswords.Problem) {
        switch problem {
        case .tooMany(let limit):
            self.init(
                .conflict, code: "too_many_app_passwords",
                message: "This account already has \(limit) app passwords, the most it can have. Revoke one a device no longer uses (GET /api/v1/app-passwords lists them), then try again.")
        }
    }

    package init(_ problem: Tasks.CompletionProblem) {
        switch problem {
        case .notFound: self = .notFound("No to-do by that name in this calendar; GET /api/v1/today lists them with their calendar and name.")
        }
    }

    package init(_ problem: UpcomingReminders.Problem) {
        switch problem {
        case .notFound: self = .notFound(problem.description.asSentence + " GET /api/v1/reminders lists them.")
        case .invalidSnooze, .invalidMinutes: self = .badRequest("invalid_field", problem.description.asSentence)
        case .snoozeHasNoOffset: self.init(.unprocessableContent, code: "reminder_is_snoozed", message: problem.description.asSentence)
        case .noStart: self.init(.unprocessableContent, code: "no_start", message: problem.description.asSentence)
        case .repeatingTodo: self.init(.unprocessableContent, code: "repeating_todo", message: problem.description.asSentence)
        }
    }

    package init(_ taken: CalendarSlugTaken) {
        self.init(.conflict, code: "calendar_slug_taken", message: taken.description.asSentence)
    }

    package init(_ problem: ConflictSettingsChange.Problem) {
        self = .badRequest("invalid_field", "Field \(problem.description).")
    }

    package init(_ problem: NotificationSettingsChange.Problem) {
        self = .badRequest("invalid_field", "Field \(problem.description).")
    }

    package init(_ problem: PrayerSettingsChange.Problem) {
        self.init(.badRequest, code: "invalid_prayer_settings", message: "Prayer settings: \(problem.description).")
    }

    package init(_ problem: PrayerPreferences.Problem) {
        switch problem {
        case .notSet:
            self.init(
                .notFound, code: "prayer_settings_not_set",
                message: "Set where you pray first: PUT /api/v1/prayer-settings with {\"city\": \"Riyadh\"} or latitude, longitude and timeZone.")
        case .invalidAlarm:
            self = .badRequest("invalid_field", "Field 'alarmMinutesBefore' must be between 0 and 1440 minutes.")
        case .noFeed:
            self = .notFound("There is no prayer-times feed to revoke.")
        }
    }

    package init(_ problem: ProfileChange.Problem) {
        switch problem {
        case .nameTooLong(let limit): self = .badRequest("invalid_field", "Field 'name' must be at most \(limit) characters.")
        case .nameHasControlCharacters: self = .badRequest("invalid_field", "Field 'name' must not contain control characters.")
        case .unknownTimeZone(let zone):
            self = .badRequest("invalid_field", "Field 'timeZone' must be an IANA time zone such as Asia/Riyadh; '\(zone)' is not one.")
        }
    }
}

extension APIError {
    package init(_ refusal: CalendarWrites.Refusal, name: String) {
        switch refusal {
        case .preconditionFailed(let etag):
            self.init(.preconditionFailed, code: "precondition_failed",
                      message: etag.map { "The object has changed (its ETag is now \($0)); fetch it again before writing." }
                          ?? "The object does not exist, so If-Match cannot hold.")
        case .uidConflict(let existing):
            self.init(.conflict, code: "uid_conflict", message: "Another object in this calendar ('\(existing)') already has this UID.")
        case .unsupportedComponent(let kind):
            self.init(.badRequest, code: "unsupported_component", message: "This calendar does not hold \(kind.rawValue) components.")
        case .invalidName:
            self.init(.badRequest, code: "invalid_name", message: "The object name must be 1 to 255 characters without '/' or control characters.")
        case .notFound:
            self.init(.notFound, code: "not_found", message: "No object '\(name)' in this calendar.")
        case .readOnly:
            self.init(.forbidden, code: "read_only", message: "This calendar is a subscription: its events come from the feed and cannot be changed here.")
        case .sharedReadOnly:
            self.init(.forbidden, code: "read_only", message: "This calendar was shared with you to read; ask its owner for read-write access to change it.")
        case .tooManyAttendees(let limit):
            self.init(.badRequest, code: "too_many_attendees", message: "A meeting may invite at most \(limit) people; this one invites more.")
        }
    }
}

extension APIError {
    package init(_ problem: EventSeriesChanges.Problem, name: String) {
        switch problem {
        case .notAnEvent:
            self = .badRequest("not_an_event", "'\(name)' is not an event; edit it as iCalendar at …/objects/\(name).")
        case .occurrenceRequired: self = .badRequest("occurrence_required", problem.description.asSentence)
        case .occurrence: self = .badRequest("invalid_occurrence", problem.description.asSentence)
        case .notInSeries: self = .badRequest("occurrence_not_in_series", problem.description.asSentence)
        case .draft(let draft): self = .badRequest("invalid_field", "Field \(draft.description).")
        case .invalid: self = .badRequest("invalid_event", problem.description.asSentence)
        }
    }
}

extension APIError {
    /// A 409 carries the conflict as it is now.
    package init(_ refusal: ConflictResolution.Refusal) {
        switch refusal {
        case .notFound:
            self = .notFound("No conflict with that ID.")
        case .alreadyResolved(let conflict):
            self.init(
                .conflict, code: "already_resolved", message: "This conflict was already resolved (\(conflict.status.rawValue)).",
                details: ConflictDetails(conflict: ConflictView(conflict, day: nil), currentEtag: nil, overlaps: nil))
        case .eventChanged(let conflict, let etag):
            self.init(
                .conflict, code: "event_changed",
                message: etag == nil
                    ? "The event was deleted since this conflict was found."
                    : "The event was changed since this conflict was found (on a phone, say); it is checked again on its own.",
                details: ConflictDetails(conflict: ConflictView(conflict, day: nil), currentEtag: etag, overlaps: nil))
        case .slotTaken(let overlaps):
            self.init(
                .conflict, code: "slot_taken",
                message: "That time runs into \(overlaps.map { "\"\($0.title)\"" }.joined(separator: ", ")); choose another slot (see the suggestions).",
                details: ConflictDetails(conflict: nil, currentEtag: nil, overlaps: overlaps.map(OverlapView.init)))
        case .cannotMove(let reason):
            self.init(.unprocessableContent, code: "cannot_move", message: reason.asSentence)
        case .notYourMeeting:
            self.init(.unprocessableContent, code: "not_your_meeting",
                      message: "This is someone else's meeting: propose another time to its organizer ('action': 'propose'), or decline it.")
        case .notAnInvitation:
            self.init(.unprocessableContent, code: "not_an_invitation", message: "Only an invitation is declined or answered with another time; move or cancel your own event.")
        }
    }
}

extension APIError {
    package init(_ refusal: RoutineCalendar.Refusal) {
        switch refusal {
        case .notFound(let id):
            self.init(.notFound, code: "routine_not_found", message: "No routine '\(id)'; GET /api/v1/routines lists yours.")
        case .invalid(let problem):
            self.init(.badRequest, code: "invalid_field", message: "Field \(problem.description).", details: FieldDetails(field: problem.field))
        case .notARoutine(let id, let reason):
            self.init(
                .unprocessableContent, code: "not_a_routine",
                message: "The event '\(id)' in the Routine calendar is no longer a routine: \(reason). Edit or delete it in your calendar app, or delete it here.")
        }
    }
}

extension APIError {
    package init(_ problem: CalendarTransfer.Problem) {
        self = switch problem {
        case .notCalendar: APIError(.unprocessableContent, code: "not_a_calendar", message: problem.description.asSentence)
        case .readOnly: APIError(.forbidden, code: "read_only", message: problem.description.asSentence)
        }
    }

    package init(_ problem: CalendarShares.Problem) {
        self = switch problem {
        case .notFound: APIError.notFound("No calendar or share of yours with that ID.")
        case .withYourself, .invalidProperty: APIError.badRequest("invalid_field", "Field \(problem.description).")
        case .computed, .subscriptionReadOnly: APIError(.unprocessableContent, code: "not_shareable", message: problem.description.asSentence)
        case .tooMany: APIError(.conflict, code: "too_many_shares", message: problem.description.asSentence)
        case .notPending: APIError(.conflict, code: "already_answered", message: problem.description.asSentence)
        }
    }

    package init(_ problem: CalendarSubscriptions.Problem) {
        self = switch problem {
        case .tooMany: APIError(.conflict, code: "too_many_subscriptions", message: problem.description.asSentence)
        case .invalidURL, .refreshInterval, .invalidProperty: APIError.badRequest("invalid_field", "Field \(problem.description).")
        case .refusedAddress: APIError(.unprocessableContent, code: "address_not_allowed", message: "Field \(problem.description).")
        }
    }

    package init(_ problem: CalDAVAccounts.Problem) {
        self = switch problem {
        case .tooMany: APIError(.conflict, code: "too_many_accounts", message: problem.description.asSentence)
        case .invalidURL, .unknownCalendar: APIError.badRequest("invalid_field", "Field \(problem.description).")
        case .missingCredentials: APIError.badRequest("invalid_field", "Fields 'username' and 'password': \(problem.description).")
        case .refusedAddress: APIError(.unprocessableContent, code: "address_not_allowed", message: "Field \(problem.description).")
        // The other server's answer, not this one's failure: a 4xx naming it, never a 5xx.
        case .refused: APIError(.unprocessableContent, code: "remote_refused_credentials", message: problem.description.asSentence)
        case .unreachable: APIError(.unprocessableContent, code: "remote_unreachable", message: problem.description.asSentence)
        }
    }

    package init(_ problem: Calendars.Problem) {
        self = switch problem {
        case .slugTaken(let slug):
            APIError(.conflict, code: "calendar_exists", message: "You already have a calendar at '\(slug)'. Choose another slug.")
        case .invalidSlug:
            APIError.badRequest("invalid_field", "Field 'slug' must be 1 to 128 ASCII letters, digits, '-', '_', '.' or '@', not starting with '.' and not 'prayer-times'.")
        case .noComponents:
            APIError.badRequest("invalid_field", "Field 'components' must list VEVENT, VTODO or VJOURNAL, e.g. [\"VTODO\"] for a task list.")
        case .invalidProperty(let property):
            APIError.badRequest("invalid_field", "Field \(property.description).")
        case .computed:
            APIError(.forbidden, code: "read_only_calendar", message: "The prayer-times calendar follows your prayer settings; clear them to remove it.")
        }
    }
}

extension APIError {
    package init(_ problem: Chats.Problem) {
        self = switch problem {
        case .invalidSetting(let setting): APIError.badRequest("invalid_field", "Field \(setting.description).")
        case .phoneNumberTaken:
            APIError(.conflict, code: "phone_number_id_taken", message: problem.description.asSentence)
        case .noConversation: APIError.notFound("No conversation with that ID.")
        case .noConnectorToken: APIError.notFound("No connector token with that ID.")
        case .invalidTokenName:
            APIError.badRequest(
                "invalid_field", "Field 'name' must name the bridge in 1 to \(ChatConnectorToken.nameLimit) characters, e.g. \"whatsapp-web.js on my laptop\".")
        case .invalidConnectorToken:
            APIError.unauthorized(
                "invalid_connector_token", "This connector token is not valid (revoked, or never issued). Create one at /api/v1/chats/connector-tokens.")
        case .accountDisabled: APIError(.forbidden, code: "account_disabled", message: "This account is disabled. Ask the server's operator.")
        }
    }
}

extension APIError {
    package init(_ problem: WhatsAppLinks.Problem) {
        self = switch problem {
        case .invalidPhone: APIError.badRequest("invalid_phone", problem.description.asSentence)
        case .invalidHistoryDays: APIError.badRequest("invalid_field", "Field 'historyDays' must be from 0 to 30.")
        case .alreadyLinked: APIError(.conflict, code: "whatsapp_already_linked", message: problem.description.asSentence)
        case .noLink: APIError.notFound("No WhatsApp link for this account. Ask for a code: POST /api/v1/whatsapp/link {\"phone\": \"+966…\"} (or {\"method\": \"qr\"}).")
        case .notWaiting: APIError(.conflict, code: "whatsapp_link_not_waiting", message: problem.description.asSentence)
        case .notLinked: APIError(.conflict, code: "whatsapp_not_linked", message: problem.description.asSentence)
        case .invalidSession: APIError.badRequest("invalid_session", problem.description.asSentence)
        case .invalidQR: APIError.badRequest("invalid_qr", problem.description.asSentence)
        case .unknownEvent: APIError.badRequest("invalid_field", problem.description.asSentence)
        }
    }
}

/// A chat error in the API's error shape, with what the client needs to try again: the line of
/// the export that is wrong, or the participants to choose `me` from.
package struct ChatAPIError: Error, HTTPResponseError, Sendable {
    package var status: HTTPResponse.Status
    package var code: String
    package var message: String
    package var line: Int?
    package var participants: [String]?
    /// Every problem of a refused connector batch, so its author fixes them in one round.
    package var problems: [BatchProblem]?

    package struct BatchProblem: Encodable, Sendable {
        package let path: String?
        package let message: String
    }

    package var headers: HTTPFields { [:] }

    package init(_ problem: ChatImportProblem) {
        participants = problem.participants
        code = problem.code
        message = problem.sentence
        line = problem.line
        status = problem.isTooLarge ? .contentTooLarge : problem.isWhoIsMe ? .conflict : .unprocessableContent
    }

    package init(_ error: ConnectorBatchError) {
        status = .badRequest
        code = "invalid_batch"
        message = error.description.asSentence
        problems = error.problems.map { BatchProblem(path: $0.path, message: $0.description) }
    }

    /// The server's chat key cannot read the stored messages: an operator's problem, said plainly.
    package init(_ problem: MessageCipher.Problem) {
        status = .internalServerError
        code = "chat_key_mismatch"
        message = "The server cannot read its stored chat messages: \(problem). Ask the server's operator."
    }

    private struct Envelope: Encodable {
        package struct Body: Encodable {
            package let code: String
            package let message: String
            package let line: Int?
            package let participants: [String]?
            package let problems: [BatchProblem]?
        }
        package let error: Body
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try JSONEncoder().encode(Envelope(error: .init(code: code, message: message, line: line, participants: participants, problems: problems)))
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension APIError {
    package init(_ problem: Goals.Problem) {
        switch problem {
        case .notFound(let id):
            self.init(.notFound, code: "goal_not_found", message: "No goal '\(id)'; GET /api/v1/goals lists yours.")
        case .tooMany:
            self.init(.conflict, code: "too_many_goals", message: problem.description.asSentence)
        default:
            self.init(.badRequest, code: "invalid_field", message: "Field \(problem.description).", details: FieldDetails(field: problem.field))
        }
    }

    package init(_ refusal: TwoWeekPlanning.Refusal) {
        switch refusal {
        case .notFound(let id):
            self.init(.notFound, code: "proposal_not_found",
                      message: "No plan item '\(id)'; GET /api/v1/plan/proposals lists the proposals waiting, and POST makes a new plan.")
        case .alreadyDecided(let id, let state):
            self.init(.conflict, code: "already_decided", message: "The proposal '\(id)' was already \(state.rawValue).")
        case .started(let id):
            self.init(.conflict, code: "proposal_started", message: "The time of '\(id)' has begun; make a new plan (POST /api/v1/plan/proposals).")
        case .slotTaken(let id, let overlaps):
            self.init(
                .conflict, code: "slot_taken",
                message: "The time of '\(id)' is no longer free: it runs into \(overlaps.map { "\"\($0.title)\"" }.joined(separator: ", ")). Make a new plan (POST /api/v1/plan/proposals).",
                details: ConflictDetails(conflict: nil, currentEtag: nil, overlaps: overlaps.map(OverlapView.init)))
        case .notASession(let id, let state):
            self.init(.conflict, code: "not_a_session",
                      message: "Only an accepted session of a goal can be marked done or skipped; '\(id)' is \(state == .accepted ? "time for a to-do or a wind-down" : state.rawValue).")
        case .notStarted(let id, let start):
            self.init(.conflict, code: "session_not_started",
                      message: "The session '\(id)' begins at \(start.formatted(.iso8601)); mark it done or skipped once it has begun.")
        case .minutes(let minutes):
            self.init(.badRequest, code: "invalid_field", message: "Field minutes: \(minutes) is out of range (expected 1 … 1440).",
                      details: FieldDetails(field: "minutes"))
        }
    }

    /// Where in an export a reading stopped.
    package struct ExportLineDetails: Encodable, Sendable {
        let file: String
        let line: Int
    }

    package init(_ problem: HealthImport.Problem) {
        switch problem {
        case .malformed(let file, let line, let reason):
            self.init(.unprocessableContent, code: "invalid_export", message: "\(file), line \(line): \(reason).",
                      details: ExportLineDetails(file: file, line: line))
        case .archive, .unreadable:
            self.init(.unprocessableContent, code: "invalid_export", message: "The file \(problem.description).")
        }
    }

    package init(_ problem: PlannerAnswers.Problem) {
        self.init(.badRequest, code: "invalid_field", message: "Field \(problem.description).", details: FieldDetails(field: problem.field))
    }

    package init(_ problem: Tracker.Problem) {
        switch problem {
        case .notFound(let id):
            self.init(.notFound, code: "tracker_entry_not_found", message: "No tracker entry '\(id)'; GET /api/v1/tracker/entries lists yours.")
        case .period, .count:
            self.init(.badRequest, code: "invalid_query", message: "'\(problem.field)'\(problem.description.dropFirst(problem.field.count)).")
        default:
            self.init(.badRequest, code: "invalid_field", message: "Field \(problem.description).", details: FieldDetails(field: problem.field))
        }
    }
}
