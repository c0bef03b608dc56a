import DAV
import Foundation
import HTTPTypes
import Hummingbird
import ICalendar
import JadwalHTTP
import NIOCore

/// How CalDAV answers are written: XML bodies with `application/xml`, errors as a `<d:error>`
/// naming the precondition (RFC 4918 §16) plus a sentence for the person reading the log.
package enum DAVResponse {
    package static let xmlContentType = "application/xml; charset=utf-8"
    package static let davHeader = HTTPField.Name("DAV")!
    package static let depthHeader = HTTPField.Name("Depth")!
    package static let destinationHeader = HTTPField.Name("Destination")!
    package static let overwriteHeader = HTTPField.Name("Overwrite")!
    package static let preferHeader = HTTPField.Name("Prefer")!
    package static let briefHeader = HTTPField.Name("Brief")!
    package static let preferenceAppliedHeader = HTTPField.Name("Preference-Applied")!

    package static let scheduleTagHeader = HTTPField.Name("Schedule-Tag")!
    package static let ifScheduleTagMatchHeader = HTTPField.Name("If-Schedule-Tag-Match")!

    /// Compliance classes (RFC 4918 §18, RFC 4791 §5.1, RFC 5689 §3, RFC 6638 §2).
    package static let compliance = "1, 3, calendar-access, extended-mkcol, calendar-auto-schedule, calendarserver-sharing"
    package static let allowedMethods = "OPTIONS, GET, HEAD, POST, PUT, DELETE, PROPFIND, PROPPATCH, REPORT, MKCALENDAR, MKCOL, MOVE"

    package static func multistatus(_ body: Multistatus, headers extra: HTTPFields = [:]) -> Response {
        xml(XMLWriter.bytes(body), status: HTTPResponse.Status(code: 207, reasonPhrase: "Multi-Status"), headers: extra)
    }

    package static func xml(_ element: DAVElement, status: HTTPResponse.Status, headers extra: HTTPFields = [:]) -> Response {
        xml(XMLWriter.bytes(element), status: status, headers: extra)
    }

    private static func xml(_ bytes: [UInt8], status: HTTPResponse.Status, headers extra: HTTPFields) -> Response {
        var headers = extra
        headers[.contentType] = xmlContentType
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    package static func error(_ error: DAVError) -> Response {
        let status = HTTPResponse.Status(code: error.status)
        // RFC 9110 §15.5.6: every 405 says what is allowed.
        let headers: HTTPFields = error.status == 405 ? [.allow: allowedMethods] : [:]
        if let body = error.errorBody { return xml(body, status: status, headers: headers) }
        return text(error.message, status: status, headers: headers)
    }

    package static func text(_ message: String, status: HTTPResponse.Status, headers extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
    }

    package static let unauthorized = text(
        "Sign in with your email address and an app password (create one in Jadwal's settings or with `jadwal app-password create`).",
        status: .unauthorized, headers: [.wwwAuthenticate: "Basic realm=\"Jadwal\", charset=\"UTF-8\""])

    /// Too many wrong passwords from this address or for this account (`SignInThrottle`).
    package static func throttled(retryAfterSeconds seconds: Int) -> Response {
        text(
            "Too many wrong passwords. Try again in \(seconds) seconds; check the app password in your device's account settings.",
            status: .tooManyRequests, headers: [.retryAfter: String(seconds)])
    }
}

extension DAVError {
    /// A refusal with a plain status and no named precondition (404, 405, 409, 415 …).
    package static func status(_ code: Int, _ message: String) -> DAVError {
        DAVError(kind: .unexpectedContent, status: code, message: message)
    }

    package static func notFound(_ path: String) -> DAVError {
        .status(404, "There is nothing at \(path).")
    }
}

extension QualifiedName {
    package static let resourceMustBeNull = dav("resource-must-be-null")
    package static let cannotModifyProtectedProperty = dav("cannot-modify-protected-property")
    package static let needPrivileges = dav("need-privileges")
    package static let scheduleCalendarTransp = caldav("schedule-calendar-transp")
    package static let opaque = caldav("opaque")
    package static let calendarUserType = caldav("calendar-user-type")
    package static let emailAddress = calendarServer("email-address")
    package static let read = dav("read")
    package static let write = dav("write")
    package static let writeProperties = dav("write-properties")
    package static let writeContent = dav("write-content")
    package static let bind = dav("bind")
    package static let unbind = dav("unbind")
    package static let readCurrentUserPrivilegeSet = dav("read-current-user-privilege-set")
    package static let readFreeBusy = caldav("read-free-busy")
}

/// HTTP dates (RFC 9110 §5.6.7) and ISO 8601 `creationdate` (RFC 4918 §15.1), formatted without
/// locale-dependent formatters.
package enum DAVDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func parts(_ date: Date) -> (days: Int, year: Int, month: Int, day: Int, h: Int, m: Int, s: Int) {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let seconds = total - days * 86_400
        let civil = CivilDate(daysSinceEpoch: days)
        return (days, civil.year, civil.month, civil.day, seconds / 3600, seconds % 3600 / 60, seconds % 60)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    package static func http(_ date: Date) -> String {
        let p = parts(date)
        let weekday = weekdays[((p.days % 7) + 7) % 7]
        return "\(weekday), \(two(p.day)) \(months[p.month - 1]) \(p.year) \(two(p.h)):\(two(p.m)):\(two(p.s)) GMT"
    }

    package static func iso8601(_ date: Date) -> String {
        let p = parts(date)
        return "\(p.year)-\(two(p.month))-\(two(p.day))T\(two(p.h)):\(two(p.m)):\(two(p.s))Z"
    }
}
