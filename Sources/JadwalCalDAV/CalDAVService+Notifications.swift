import DAV
import Foundation
import Hummingbird
import ICalendar
import JadwalCore
import NIOCore

/// Apple's notification collection (`CS:notification-URL`, caldav-notifications): each calendar
/// shared with the person and not yet answered is one `CS:invite-notification`, which iPhone and
/// Mac show as an invitation to accept or decline. The answer comes as `CS:invite-reply` to the
/// calendar home, as from any client; deleting a notification dismisses it, which declines the
/// share (the person may still accept it later on the web). The notifications are the pending
/// shares themselves, so nothing is stored for them.
extension CalDAVService {
    /// One notification's resource name: the share's id, as its `CS:uid` says too.
    static func notificationName(_ entry: CalendarShareEntry) -> String { entry.share.id.uuidString.lowercased() + ".xml" }

    /// The share a notification name stands for, among those sent to the person (in any state).
    func incomingShare(named name: String, account: Account) async throws -> CalendarShareEntry? {
        try await shares.incoming(for: account).first { Self.notificationName($0) == name }
    }

    /// The shares waiting for the person's answer: the collection's notifications.
    func pendingShares(_ account: Account) async throws -> [CalendarShareEntry] {
        try await shares.incoming(for: account).filter { $0.share.state == .invited }
    }

    /// The pending share a notification name stands for.
    func notification(named name: String, account: Account) async throws -> CalendarShareEntry? {
        try await incomingShare(named: name, account: account).flatMap { $0.share.state == .invited ? $0 : nil }
    }

    /// GET of one notification: its XML document.
    func getNotification(_ call: DAVCall, includeBody: Bool) async throws -> Response {
        guard case .notification(_, let name) = call.target, let entry = try await notification(named: name, account: call.account) else {
            throw DAVError.notFound(call.request.uri.path)
        }
        let bytes = ShareNotification(entry).bytes
        var headers: HTTPFields = [.eTag: ShareNotification.etag(of: bytes), .contentType: ShareNotification.contentType]
        if let wanted = call.request.headers[.ifNoneMatch], Self.etagList(wanted).contains(where: { $0 == headers[.eTag] || $0 == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentLength] = String(bytes.count)
        return Response(status: .ok, headers: headers, body: includeBody ? .init(byteBuffer: ByteBuffer(bytes: bytes)) : .init())
    }

    /// DELETE of one notification: dismissed. A pending share is declined; one answered already
    /// (the client deletes the notification after it replied) just goes.
    func deleteNotification(_ call: DAVCall) async throws -> Response {
        guard case .notification(_, let name) = call.target, let entry = try await incomingShare(named: name, account: call.account) else {
            throw DAVError.notFound(call.request.uri.path)
        }
        if entry.share.state == .invited { try await shares.decline(shareID: entry.share.id, account: call.account) }
        return Response(status: .noContent)
    }
}

/// One share invitation as a `CS:notification` document.
package struct ShareNotification: Sendable {
    let entry: CalendarShareEntry

    package init(_ entry: CalendarShareEntry) { self.entry = entry }

    package static let contentType = "application/xml; charset=utf-8"

    package var element: DAVElement {
        let share = entry.share
        return DAVElement(.notification, elements: [
            DAVElement(.notificationStamp, text: Self.stamp(share.createdAt)),
            DAVElement(.inviteNotification, attributes: [QualifiedName("", "shared-type"): "calendar"], elements: [
                DAVElement(.notificationUID, text: share.id.uuidString.lowercased()),
                DAVElement(.href, text: "mailto:" + share.shareeEmail.value),
                DAVElement(.inviteNoResponse),
                DAVElement(.inviteAccess, elements: [DAVElement(share.access == .readWrite ? .readWriteAccess : .readAccess)]),
                DAVElement(.hostURL, elements: [DAVElement(.href, text: DAVHref.calendar(share.ownerID, entry.calendar.slug))]),
                DAVElement(.inviteOrganizer, elements: [
                    DAVElement(.href, text: "mailto:" + entry.ownerEmail.value), DAVElement(.commonName, text: entry.ownerName),
                ]),
                DAVElement(.summary, text: share.note.isEmpty ? entry.calendar.displayName : share.note),
                PropertyValue.supportedCalendarComponentSet(entry.calendar.components.sorted().map(\.rawValue)),
            ]),
        ])
    }

    package var bytes: [UInt8] { XMLWriter.bytes(element) }

    package static func etag(of bytes: [UInt8]) -> String { "\"" + String(String(decoding: bytes, as: UTF8.self).sha256Hex.prefix(32)) + "\"" }

    /// The collection's CTag: changes whenever a notification comes or goes.
    package static func ctag(_ pending: [CalendarShareEntry]) -> String {
        pending.map { $0.share.id.uuidString.lowercased() + "@" + String($0.share.updatedAt.timeIntervalSince1970) }.sorted().joined(separator: ",").sha256Hex
    }

    /// `20261205T120000Z`.
    private static func stamp(_ date: Date) -> String {
        DateOrDateTime.dateTime(LocalDateTime(secondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded(.down))), .utc).icalValue
    }
}
