import DAV
import Foundation
import HTTPTypes
import Hummingbird
import ICalendar
import JadwalCore
import JadwalHTTP
import NIOCore

extension CalDAVService {
    // MARK: - GET / HEAD

    package func get(_ call: DAVCall, includeBody: Bool) async throws -> Response {
        switch call.target {
        case .object:
            guard case .object(let calendar, let object)? = try await resource(call.target, account: call.account) else {
                throw DAVError.notFound(call.request.uri.path)
            }
            var headers: HTTPFields = [
                .eTag: object.etag, .contentType: DAVPropertySheet.contentType(object.component),
                .lastModified: DAVDate.http(object.updatedAt),
            ]
            headers.append(contentsOf: scheduleTagHeader(object, in: calendar, account: call.account))
            if let wanted = call.request.headers[.ifNoneMatch], Self.etagList(wanted).contains(where: { $0 == object.etag || $0 == "*" }) {
                return Response(status: .notModified, headers: headers)
            }
            let bytes = ByteBuffer(string: object.icalendar)
            headers[.contentLength] = String(bytes.readableBytes)
            return Response(status: .ok, headers: headers, body: includeBody ? .init(byteBuffer: bytes) : .init())
        case .calendar:
            // The whole calendar as one iCalendar file: a backup, or a one-off import elsewhere.
            let calendar = try await calendar(for: call)
            let objects = try await objects(in: calendar, account: call.account)
            let text = ICalendarSerializer().serialize(CalendarTransfer.document(objects, name: calendar.displayName))
            let bytes = ByteBuffer(string: text)
            let headers: HTTPFields = [
                .contentType: "text/calendar; charset=utf-8", .contentLength: String(bytes.readableBytes),
                .eTag: "\"\(SyncToken(calendarID: calendar.id, revision: calendar.revision).description.sha256Hex.prefix(32))\"",
            ]
            return Response(status: .ok, headers: headers, body: includeBody ? .init(byteBuffer: bytes) : .init())
        case .notification:
            return try await getNotification(call, includeBody: includeBody)
        case .inboxItem:
            guard case .inboxItem(let message)? = try await resource(call.target, account: call.account) else {
                throw DAVError.notFound(call.request.uri.path)
            }
            var headers: HTTPFields = [.eTag: message.etag, .contentType: DAVPropertySheet.contentType(.event), .lastModified: DAVDate.http(message.createdAt)]
            if let wanted = call.request.headers[.ifNoneMatch], Self.etagList(wanted).contains(where: { $0 == message.etag || $0 == "*" }) {
                return Response(status: .notModified, headers: headers)
            }
            let bytes = ByteBuffer(string: message.icalendar)
            headers[.contentLength] = String(bytes.readableBytes)
            return Response(status: .ok, headers: headers, body: includeBody ? .init(byteBuffer: bytes) : .init())
        default:
            guard try await resource(call.target, account: call.account) != nil else { throw DAVError.notFound(call.request.uri.path) }
            let message = "This is a CalDAV collection. Add this server's address to your calendar app as a CalDAV account."
            return DAVResponse.text(message, status: .ok)
        }
    }

    package static func etagList(_ header: String) -> [String] {
        header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    // MARK: - PUT (RFC 4791 §5.3.2)

    package func put(_ call: DAVCall) async throws -> Response {
        guard case .object(let owner, let slug, let name) = call.target else {
            throw DAVError.status(405, "PUT creates calendar objects inside a calendar, such as \(DAVHref.calendar(call.account.id, "personal"))event.ics.")
        }
        let calendar = try await calendar(for: call)
        // A subscribed calendar is refused by the write itself: its to-dos may be marked done.
        try Self.requireWritable(calendar)
        if let type = call.request.headers[.contentType], !type.lowercased().hasPrefix("text/calendar") {
            throw DAVError.precondition(.supportedCalendarData, "Calendar objects must be sent as text/calendar (iCalendar 2.0), not \(type).")
        }
        let data: Data
        do {
            data = try await body(of: call.request, limit: CalendarObjectContent.maxBytes)
        } catch let error as DAVError where error.kind == .bodyTooLarge {
            throw DAVError.precondition(
                .maxResourceSizeExceeded, "A calendar object may be at most \(CalendarObjectContent.maxBytes) bytes.", status: 413)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw DAVError.precondition(.supportedCalendarData, "The body is not UTF-8 text.")
        }
        let content: CalendarObjectContent
        do {
            content = try CalendarObjectContent(text: text)
        } catch {
            throw Self.davError(error)
        }
        let ifNoneMatch = call.request.headers[.ifNoneMatch]?.trimmingCharacters(in: .whitespaces)
        let condition = try await writeCondition(call, calendar: calendar, name: name)
        do {
            let (object, created) = try await writes.put(
                content, name: name, in: calendar, ifMatch: condition.ifMatch, ifNoneMatch: ifNoneMatch == "*", ifScheduleTag: condition.ifScheduleTag,
                source: .caldav)
            // RFC 4791 §5.3.4: an ETag only when the stored object is byte for byte what was sent;
            // scheduling writes SCHEDULE-STATUS into it, and the client must then fetch it again.
            var headers: HTTPFields = object.icalendar == content.text ? [.eTag: object.etag] : [:]
            headers.append(contentsOf: scheduleTagHeader(object, in: calendar, account: call.account))
            return Response(status: created ? .created : .noContent, headers: headers)
        } catch let refusal as CalendarWrites.Refusal {
            throw Self.refusal(refusal, owner: owner, slug: slug, href: call.href)
        }
    }


    // MARK: - DELETE

    package func delete(_ call: DAVCall) async throws -> Response {
        switch call.target {
        case .notification:
            return try await deleteNotification(call)
        case .inboxItem(_, let name):
            // A client that has dealt with a delivered message removes it (RFC 6638 §2.2).
            guard try await invitations.deleteInboxMessage(named: name, of: call.account) else { throw DAVError.notFound(call.request.uri.path) }
            return Response(status: .noContent)
        case .object(let owner, let slug, let name):
            let calendar = try await calendar(for: call)
            try Self.requireWritableContent(calendar)
            let condition = try await writeCondition(call, calendar: calendar, name: name)
            do {
                try await writes.delete(name: name, in: calendar, ifMatch: condition.ifMatch, ifScheduleTag: condition.ifScheduleTag, source: .caldav)
            } catch let refusal as CalendarWrites.Refusal {
                throw Self.refusal(refusal, owner: owner, slug: slug, href: call.href)
            }
            return Response(status: .noContent)
        case .calendar:
            let calendar = try await calendar(for: call)
            if let shared = calendar.sharedWithMe {
                // Deleting a calendar someone shared with you leaves it (as SabreDAV and
                // Apple's servers do); the owner's calendar stays.
                try await shares.decline(shareID: shared.shareID, account: call.account)
                return Response(status: .noContent)
            }
            do {
                try await calendars.delete(calendar)
            } catch let problem as Calendars.Problem {
                throw Self.davError(problem, href: call.href)
            }
            return Response(status: .noContent)
        default:
            throw DAVError.status(403, "Only calendars and calendar objects can be deleted.")
        }
    }

    // MARK: - MOVE (RFC 4918 §9.9)

    package func move(_ call: DAVCall) async throws -> Response {
        guard case .object(let owner, _, let name) = call.target else {
            throw DAVError.status(403, "Only calendar objects can be moved; to rename a calendar, change its displayname.")
        }
        let source = try await calendar(for: call)
        try Self.requireWritableContent(source)
        guard let destinationHeader = call.request.headers[DAVResponse.destinationHeader] else {
            throw DAVError.status(400, "MOVE needs a Destination header naming the new location.")
        }
        guard case .object(let destinationOwner, let destinationSlug, let newName)? = DAVTarget(path: DAVHref.path(of: destinationHeader)),
              destinationOwner == owner
        else {
            throw DAVError.status(403, "The Destination must be a calendar object path in one of your calendars, such as \(DAVHref.calendar(owner, "personal"))event.ics.")
        }
        let destinationCall = DAVCall(request: call.request, target: .object(owner, slug: destinationSlug, name: newName), account: call.account)
        let destination = try await calendar(for: destinationCall)
        try Self.requireWritableContent(destination)
        if destination.id == source.id, newName == name {
            throw DAVError.status(403, "The source and destination are the same resource.")
        }
        let overwrite = call.request.headers[DAVResponse.overwriteHeader]?.trimmingCharacters(in: .whitespaces).uppercased() != "F"
        // If-Schedule-Tag-Match names the source, the Request-URI (RFC 6638 §3.2.10).
        let condition = try await writeCondition(call, calendar: source, name: name)
        do {
            let (object, created) = try await writes.move(
                name: name, from: source, to: destination, as: newName, overwrite: overwrite, ifMatch: condition.ifMatch,
                ifScheduleTag: condition.ifScheduleTag)
            var headers: HTTPFields = created ? [.location: destinationCall.href] : [:]
            headers.append(contentsOf: scheduleTagHeader(object, in: destination, account: call.account))
            return Response(status: created ? .created : .noContent, headers: headers)
        } catch let refusal as CalendarWrites.Refusal {
            throw Self.refusal(refusal, owner: owner, slug: destinationSlug, href: call.href)
        }
    }
}
