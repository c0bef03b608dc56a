import DAV
import Foundation
import Hummingbird
import ICalendar
import JadwalCore
import JadwalHTTP

/// Sharing over CalDAV, as Apple's clients and SabreDAV do it: the owner POSTs `CS:share` (or
/// the draft's `DAV:share-resource`) to the calendar; the invited person POSTs `CS:invite-reply`
/// to their calendar home. Both go to `CalendarShares`, like the JSON API.
extension CalDAVService {
    func sharingPost(_ call: DAVCall) async throws -> Response {
        if let type = call.request.headers[.contentType]?.lowercased(), !type.contains("xml") {
            // Busy-time requests (text/calendar) belong to the Outbox, not here.
            throw DAVError.status(
                405, "POST here only shares calendars (XML: <CS:share>, <DAV:share-resource> or <CS:invite-reply>); send busy-time requests to your Outbox, \(DAVHref.scheduleOutbox(call.account.id)).")
        }
        let element = try reader.read(try await body(of: call.request))
        switch call.target {
        case .calendar:
            let calendar = try await calendar(for: call)
            guard calendar.sharedWithMe == nil, !calendar.isComputed else {
                throw DAVError.precondition(.needPrivileges, "Only the owner of \(calendar.displayName) can share it.")
            }
            try await share(calendar, request: try ShareRequest(element: element), owner: call.account)
            return Response(status: .ok)
        default:
            let reply = try InviteReply(element: element)
            return try await answer(reply, account: call.account)
        }
    }

    private func share(_ calendar: CalendarCollection, request: ShareRequest, owner: Account) async throws {
        let current = try await shares.shares(calendarID: calendar.id, owner: owner)
        for sharee in request.sharees {
            guard let email = try await email(of: sharee.href) else {
                throw DAVError.status(403, "\(sharee.href) is not an address Jadwal can share with; use mailto: and an email address.")
            }
            do {
                switch sharee.access {
                case .remove:
                    if let share = current.first(where: { $0.shareeEmail == email }) { try await shares.revoke(shareID: share.id, owner: owner) }
                case .read, .readWrite:
                    try await shares.share(
                        calendarID: calendar.id, owner: owner, with: email, access: sharee.access == .readWrite ? .readWrite : .read, note: sharee.note)
                }
            } catch let problem as CalendarShares.Problem {
                throw Self.davError(problem)
            }
        }
    }

    /// Accepts or declines: the share is found by the invitation's id (`in-reply-to`, the share id
    /// Jadwal gives) or by the calendar's URL in its owner's home.
    private func answer(_ reply: InviteReply, account: Account) async throws -> Response {
        let incoming = try await shares.incoming(for: account)
        let hostPath = reply.hostURL.map { DAVHref.path(of: $0) }
        let entry = incoming.first { entry in
            if let id = reply.inReplyTo, entry.share.id.uuidString.lowercased() == id.lowercased() { return true }
            guard let hostPath, case .calendar(let owner, let slug)? = DAVTarget(path: hostPath) else { return false }
            return owner == entry.share.ownerID && slug == entry.calendar.slug
        }
        guard let entry else { throw DAVError.status(403, "There is no share to you matching this reply (in-reply-to or hosturl).") }
        guard reply.accepted else {
            try await shares.decline(shareID: entry.share.id, account: account)
            return Response(status: .ok)
        }
        let accepted = try await shares.accept(shareID: entry.share.id, account: account, name: reply.summary.flatMap { $0.isEmpty ? nil : $0 })
        let href = DAVHref.calendar(account.id, accepted.share.slug ?? "")
        return DAVResponse.xml(DAVElement(.sharedAs, elements: [DAVElement(.href, text: href)]), status: .ok)
    }

    /// The email a sharee's href names: a `mailto:` address (an account made later with it finds
    /// the share), or the principal URL of an account, read as the Outbox reads addresses.
    private func email(of href: String) async throws -> EmailAddress? {
        let address = CalendarUserAddress(href)
        if let text = address.email { return try? EmailAddress(text) }
        return try await account(at: address)?.email
    }
}
