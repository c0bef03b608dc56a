import DAV
import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP
import Logging

/// A refusal whose body is more than a named precondition (e.g. `no-uid-conflict` with the
/// href of the object that already has the UID).
package struct DAVRefusal: Error, @unchecked Sendable {
    package let response: Response
}

/// How Core's errors become CalDAV answers: the one place they are mapped (the API's is
/// `APIErrors.swift`). A handler that knows more (the href of a UID's holder, the calendar a
/// slug names) calls the mapping here with it; everything else reaches `answer(for:logger:)`.
extension CalDAVService {
    /// The answer to a request that failed with `error`: a DAV precondition, a refusal's body,
    /// 507 for a full disk or an owner out of room, 503 while the database is unavailable, and
    /// a 500 (logged) for anything unforeseen.
    package static func answer(for error: any Error, logger: Logger) -> Response {
        switch error {
        case let error as DAVError:
            return DAVResponse.error(error)
        case let refusal as DAVRefusal:
            return refusal.response
        case let refusal as CalendarWrites.Refusal:
            return DAVResponse.error(davError(refusal))
        case let full as AccountQuota.Exceeded:
            return DAVResponse.error(DAVError.precondition(.quotaNotExceeded, "The calendar's owner is out of room: \(full).", status: 507))
        case is StorageFull:
            logger.error("database disk full; nothing was written")
            return DAVResponse.text(
                "The server has run out of disk space, so nothing was saved. Tell the server's operator; the same request works again once space is freed.",
                status: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"))
        case let busy as StoreUnavailable:
            // Nothing was written: the client sends the same request again later.
            logger.warning("database unavailable", metadata: ["reason": "\(busy.reason)"])
            var response = DAVResponse.text(
                "The server is too busy to take this now (\(busy.reason)). Nothing was changed; try again in \(busy.retryAfterSeconds) s.",
                status: .serviceUnavailable)
            response.headers[.retryAfter] = String(busy.retryAfterSeconds)
            return response
        default:
            logger.error("CalDAV request failed", metadata: ["error": "\(String(reflecting: error))"])
            return DAVResponse.text(
                "Something went wrong on the server. The request ID in X-Request-ID helps the operator find it.", status: .internalServerError)
        }
    }

    package static func davError(_ problem: CalendarObjectContent.Problem) -> DAVError {
        let sentence = problem.description.asSentence
        switch problem {
        case .tooLarge:
            return DAVError.precondition(.maxResourceSizeExceeded, sentence, status: 413)
        case .invalid:
            return DAVError.precondition(.validCalendarData, sentence)
        case .noComponent, .missingUID, .mixedUIDs, .mixedComponents, .hasMethod:
            return DAVError.precondition(.validCalendarObjectResource, sentence)
        }
    }

    /// A write refusal as CalDAV answers it; a UID conflict names the object holding the UID.
    package static func refusal(_ refusal: CalendarWrites.Refusal, owner: UUID, slug: String, href: String) -> any Error {
        if case .uidConflict(let existing) = refusal {
            let existingHref = DAVHref.object(owner, slug, existing)
            let body = DAVElement(.error, elements: [
                DAVElement(.noUIDConflict, elements: [DAVElement(.href, text: existingHref)]),
                DAVElement(.responseDescription, text: "Another object in this calendar (\(existingHref)) already has this UID."),
            ])
            return DAVRefusal(response: DAVResponse.xml(body, status: .forbidden))
        }
        return davError(refusal, href: href)
    }

    package static func davError(_ refusal: CalendarWrites.Refusal, href: String? = nil) -> DAVError {
        switch refusal {
        case .preconditionFailed(let etag):
            return .status(412, etag.map { "The resource has changed (its ETag is now \($0)); fetch it again before writing." }
                ?? "The resource does not exist, so If-Match cannot hold.")
        case .uidConflict(let existing):
            return DAVError.precondition(.noUIDConflict, "Another object in this calendar (\(existing)) already has this UID.")
        case .unsupportedComponent(let kind):
            return DAVError.precondition(.supportedCalendarComponent, "This calendar does not hold \(kind.rawValue) components.")
        case .invalidName:
            return .status(400, "A resource name must be 1 to 255 characters without '/' or control characters.")
        case .notFound:
            return .notFound(href ?? "that path")
        case .readOnly:
            return DAVError.precondition(.needPrivileges, "This calendar is a subscription: its events come from the feed and are read-only here.")
        case .sharedReadOnly:
            return DAVError.precondition(.needPrivileges, "This calendar was shared with you read-only; ask its owner for read-write access to change it.")
        case .tooManyAttendees(let limit):
            return DAVError.precondition(.maxAttendeesPerInstance, "A meeting may invite at most \(limit) people; this one invites more.")
        }
    }

    package static func davError(_ problem: Calendars.Problem, href: String) -> DAVError {
        switch problem {
        case .computed:
            DAVError.precondition(.needPrivileges, "The prayer-times calendar disappears when you clear your prayer settings; it cannot be deleted.")
        case .slugTaken:
            DAVError.precondition(.resourceMustBeNull, "A calendar already exists at \(href).", status: 405)
        case .invalidSlug, .noComponents, .invalidProperty:
            DAVError.precondition(.calendarCollectionLocationOK, problem.description.asSentence)
        }
    }

    package static func davError(_ problem: CalendarShares.Problem) -> DAVError {
        DAVError.status(problem == .notFound ? 404 : 403, problem.description.asSentence)
    }
}
