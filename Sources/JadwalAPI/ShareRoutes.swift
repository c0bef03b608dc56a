import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP

/// Sharing calendars and busy time: `/api/v1/calendars/{id}/shares` (the owner's side),
/// `/api/v1/shares/…` (the invited person's side) and `/api/v1/free-busy/sharing`. The rules are
/// `CalendarShares`'; this only reads bodies and shapes answers.
package struct ShareRoutes: Sendable {
    package let shares: CalendarShares

    package init(shares: CalendarShares) {
        self.shares = shares
    }

    struct ShareRequest: Decodable {
        let email: String
        let access: String?
        let note: String?
    }

    struct AccessChange: Decodable {
        let access: String
    }

    struct AcceptRequest: Decodable {
        let name: String?
        let color: String?
    }

    struct MineChange: Decodable {
        let name: String?
        let color: String?
        /// Present and null: follow the access again.
        let busy: Bool??

        enum CodingKeys: String, CodingKey { case name, color, busy }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            color = try container.decodeIfPresent(String.self, forKey: .color)
            busy = container.contains(.busy) ? .some(try container.decodeIfPresent(Bool.self, forKey: .busy)) : nil
        }
    }

    /// Who may see busy time, in the body and the answer: `"everyone"`, `"nobody"`, or a list of
    /// addresses.
    enum Allow: Codable, Sendable {
        case word(String)
        case addresses([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let word = try? container.decode(String.self) {
                self = .word(word)
            } else {
                self = .addresses(try container.decode([String].self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .word(let word): try container.encode(word)
            case .addresses(let list): try container.encode(list)
            }
        }
    }

    struct VisibilityRequest: Decodable {
        let allow: Allow
    }

    /// A share as its owner sees it.
    struct ShareView: Encodable, Sendable {
        let id: String
        let calendarId: String
        let email: String
        let access: String
        /// `invited`, `accepted` or `declined`.
        let state: String
        let note: String
        let createdAt: Date
        let updatedAt: Date

        init(_ share: CalendarShare) {
            id = share.id.uuidString.lowercased()
            calendarId = share.calendarID.uuidString.lowercased()
            email = share.shareeEmail.value
            access = share.access.rawValue
            state = share.state.rawValue
            note = share.note
            createdAt = share.createdAt
            updatedAt = share.updatedAt
        }
    }

    /// A share as the invited person sees it.
    struct IncomingView: Encodable, Sendable {
        let id: String
        let calendarId: String
        let owner: String
        let ownerEmail: String
        /// The owner's name for the calendar.
        let calendarName: String
        /// The person's name and colour for it (the owner's unless they set their own).
        let name: String
        let color: String?
        let access: String
        let state: String
        let busy: Bool
        let note: String
        /// Where it is in the person's CalDAV home, once accepted.
        let slug: String?

        init(_ entry: CalendarShareEntry) {
            let view = entry.view
            id = entry.share.id.uuidString.lowercased()
            calendarId = entry.calendar.id.uuidString.lowercased()
            owner = entry.ownerName
            ownerEmail = entry.ownerEmail.value
            calendarName = entry.calendar.displayName
            name = view.displayName
            color = view.color
            access = entry.share.access.rawValue
            state = entry.share.state.rawValue
            busy = entry.share.countsAsBusy
            note = entry.share.note
            slug = entry.share.state == .accepted ? entry.share.slug : nil
        }
    }

    struct ShareList: Encodable, Sendable { let shares: [ShareView] }
    struct IncomingList: Encodable, Sendable { let shares: [IncomingView] }

    struct VisibilityView: Encodable, Sendable {
        let allow: Allow

        init(_ visibility: BusyTimeVisibility) {
            switch visibility.audience {
            case .nobody: allow = .word("nobody")
            case .everyone: allow = .word("everyone")
            case .named: allow = .addresses(visibility.allowed.map(\.value))
            }
        }
    }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("calendars/{id}/shares") { _, context in
            let owner = try context.requireIdentity().account
            return JSONResponse(ShareList(shares: try await shares.shares(calendarID: try Self.id(context), owner: owner).map(ShareView.init)))
        }
        group.post("calendars/{id}/shares") { request, context in
            let owner = try context.requireIdentity().account
            let body = try await request.decodeJSON(as: ShareRequest.self)
            let share = try await shares.share(
                calendarID: try Self.id(context), owner: owner, with: try Self.email(body.email), access: try Self.access(body.access ?? "read"),
                note: body.note ?? "")
            return JSONResponse(ShareView(share), status: .created)
        }
        group.patch("calendars/{id}/shares/{shareId}") { request, context in
            let owner = try context.requireIdentity().account
            let body = try await request.decodeJSON(as: AccessChange.self)
            let share = try await shares.change(shareID: try Self.id(context, "shareId"), owner: owner, access: try Self.access(body.access))
            return JSONResponse(ShareView(share))
        }
        group.delete("calendars/{id}/shares/{shareId}") { _, context -> Response in
            let owner = try context.requireIdentity().account
            try await shares.revoke(shareID: try Self.id(context, "shareId"), owner: owner)
            return Response(status: .noContent)
        }
        group.get("shares/incoming") { _, context in
            let account = try context.requireIdentity().account
            return JSONResponse(IncomingList(shares: try await shares.incoming(for: account).map(IncomingView.init)))
        }
        group.post("shares/{shareId}/accept") { request, context in
            let account = try context.requireIdentity().account
            let body = try await request.decodeJSONIfPresent(as: AcceptRequest.self)
            let entry = try await shares.accept(shareID: try Self.id(context, "shareId"), account: account, name: body?.name, color: body?.color)
            return JSONResponse(IncomingView(entry))
        }
        group.post("shares/{shareId}/decline") { _, context -> Response in
            let account = try context.requireIdentity().account
            try await shares.decline(shareID: try Self.id(context, "shareId"), account: account)
            return Response(status: .noContent)
        }
        group.patch("shares/{shareId}") { request, context in
            let account = try context.requireIdentity().account
            let body = try await request.decodeJSON(as: MineChange.self)
            let entry = try await shares.updateMine(
                shareID: try Self.id(context, "shareId"), account: account, name: body.name, color: body.color, busy: body.busy)
            return JSONResponse(IncomingView(entry))
        }
        group.get("free-busy/sharing") { _, context in
            let account = try context.requireIdentity().account
            return JSONResponse(VisibilityView(try await shares.busyTimeVisibility(of: account)))
        }
        group.put("free-busy/sharing") { request, context in
            let account = try context.requireIdentity().account
            let body = try await request.decodeJSON(as: VisibilityRequest.self)
            let visibility: BusyTimeVisibility
            switch body.allow {
            case .word("everyone"): visibility = BusyTimeVisibility(audience: .everyone)
            case .word("nobody"): visibility = .nobody
            case .word(let other):
                throw APIError.badRequest("invalid_field", "Field 'allow' must be \"everyone\", \"nobody\" or a list of email addresses, not \"\(other)\".")
            case .addresses(let list):
                guard list.count <= 500 else { throw APIError.badRequest("invalid_field", "Field 'allow' may list at most 500 addresses.") }
                var addresses: [EmailAddress] = []
                for text in list {
                    let address = try Self.email(text, field: "allow")
                    if address != account.email, !addresses.contains(address) { addresses.append(address) }
                }
                visibility = addresses.isEmpty ? .nobody : BusyTimeVisibility(audience: .named, allowed: addresses)
            }
            try await shares.setBusyTimeVisibility(visibility, of: account)
            return JSONResponse(VisibilityView(visibility))
        }
    }

    static func id(_ context: JadwalRequestContext, _ name: String = "id") throws -> UUID {
        guard let id = context.parameters.get(name).flatMap(UUID.init(uuidString:)) else {
            throw APIError.notFound("No calendar or share of yours with that ID.")
        }
        return id
    }

    static func email(_ text: String, field: String = "email") throws -> EmailAddress {
        do {
            return try EmailAddress(text)
        } catch {
            throw APIError.badRequest("invalid_field", "Field '\(field)': \(error.description) ('\(text.prefix(80))').")
        }
    }

    static func access(_ text: String) throws -> CalendarShare.Access {
        guard let access = CalendarShare.Access(rawValue: text.lowercased()) else {
            throw APIError.badRequest("invalid_field", "Field 'access' must be \"read\" or \"read-write\", not \"\(text.prefix(40))\".")
        }
        return access
    }
}
