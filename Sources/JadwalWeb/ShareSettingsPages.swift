import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP

/// Sharing on Settings → Calendars: under each calendar, the people it is shared with (change
/// their access, stop sharing) and a form to share it; calendars shared with the person (accept,
/// decline, leave); and who may see their busy time. Every form goes through `CalendarShares`,
/// the service the JSON API and CalDAV use.
package enum ShareSettingsPages {
    package struct ShareForm: Decodable {
        package var email: String?
        /// `read` or `read-write`.
        package var access: String?
    }

    package struct BusyTimeForm: Decodable {
        /// `nobody`, `everyone` or `named`.
        package var audience: String?
        /// Addresses, one per line or separated by commas (with `named`).
        package var allowed: String?
    }

    /// The addresses in the busy-time form's text, or the first one that is not an address.
    static func addresses(_ text: String) -> Result<[EmailAddress], BadAddress> {
        var found: [EmailAddress] = []
        // "\r\n" from a form is one Character, so newlines are found by kind, not by value.
        for part in text.split(whereSeparator: { $0.isWhitespace || $0 == "," || $0 == ";" }) {
            do {
                let address = try EmailAddress(String(part))
                if !found.contains(address) { found.append(address) }
            } catch {
                return .failure(BadAddress(text: String(part)))
            }
        }
        return .success(found)
    }

    struct BadAddress: Error { let text: String }
}

/// What the calendars page shows of sharing: values for each calendar's row and for the page.
struct SharingValues {
    let made: [UUID: [CalendarShare]]
    let texts: [String: String]
    let form: ShareSettingsPages.ShareForm?
    var page: [String: Any]

    func row(_ calendar: CalendarCollection, _ errors: [String: String]) -> [String: Any] {
        let id = WebRoutes.segment(calendar.id)
        let shares = made[calendar.id] ?? []
        var values: [String: Any] = [
            "action": "\(CalendarSettingsPages.path)/\(id)/shares", "id": id,
            "readOnlyOnly": calendar.isSubscribed,
            "summary": shares.isEmpty ? texts.text("sharingNobody") : texts.text("sharingCount", ["count": String(shares.count)]),
            "shares": shares.map { share -> [String: Any] in
                let readWrite = share.access == .readWrite
                return [
                    "email": share.shareeEmail.value, "state": texts.text("sharingState_\(share.state.rawValue)"),
                    "access": texts.text(readWrite ? "sharingAccessReadWrite" : "sharingAccessRead"),
                    "action": "\(CalendarSettingsPages.path)/shares/\(share.id.uuidString.lowercased())",
                    "other": readWrite ? "read" : "read-write", "canWrite": !calendar.isSubscribed,
                    "otherLabel": texts.text(readWrite ? "sharingMakeRead" : "sharingMakeReadWrite", ["email": share.shareeEmail.value]),
                    "revokeLabel": texts.text("sharingRevokeOne", ["email": share.shareeEmail.value, "name": calendar.displayName]),
                ]
            },
            "email": errors["shareEmail"] == nil ? "" : form?.email ?? "",
            "readWrite": errors["shareEmail"] != nil && form?.access == "read-write",
            "label": texts.text("sharingShareOne", ["name": calendar.displayName]),
        ]
        // Only when there is one: an empty string would still open a Mustache section.
        if let error = errors["shareEmail"] { values["error"] = error }
        return values
    }
}

extension WebRoutes {
    var shares: CalendarShares { CalendarShares(store: store, clock: clock, random: random) }

    func sharingValues(account: Account, texts: [String: String], extras: CalendarSettingsExtras) async throws -> SharingValues {
        let made = Dictionary(grouping: try await shares.made(by: account), by: \.calendarID)
        let incoming = try await shares.incoming(for: account).filter { $0.share.state != .declined }
        let visibility = try await shares.busyTimeVisibility(of: account)
        let form = extras.busyTime
        let audience = form?.audience ?? visibility.audience.rawValue
        var page: [String: Any] = [
            "incoming": incoming.map { entry -> [String: Any] in
                let action = "\(CalendarSettingsPages.path)/incoming/\(entry.share.id.uuidString.lowercased())"
                let name = entry.view.displayName
                return [
                    "name": name, "owner": entry.ownerName, "ownerEmail": entry.ownerEmail.value, "action": action,
                    "invited": entry.share.state == .invited,
                    "access": texts.text(entry.share.access == .readWrite ? "sharingAccessReadWrite" : "sharingAccessRead"),
                    "from": texts.text("sharingFrom", ["owner": entry.ownerName, "email": entry.ownerEmail.value]),
                    "acceptLabel": texts.text("sharingAcceptOne", ["name": name]),
                    "declineLabel": texts.text("sharingDeclineOne", ["name": name]),
                    "leaveLabel": texts.text("sharingLeaveOne", ["name": name]),
                ]
            },
            "hasIncoming": !incoming.isEmpty,
            "busyNobody": audience == "nobody", "busyEveryone": audience == "everyone", "busyNamed": audience == "named",
            "busyAllowed": form?.allowed ?? visibility.allowed.map(\.value).joined(separator: "\n"),
        ]
        if let error = extras.errors["busyAllowed"] { page["busyError"] = error }
        return SharingValues(made: made, texts: texts, form: extras.share, page: page)
    }

    package func addShareSettingsRoutes(to group: RouterGroup<JadwalRequestContext>) {
        let path = CalendarSettingsPages.path
        group.post("settings/calendars/{id}/shares") { request, context -> Response in
            let account = try context.requireIdentity().account
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw HTTPError(.notFound, message: "No such calendar.") }
            let form = try context.form(ShareSettingsPages.ShareForm.self)
            let texts = assets.texts(account.language)
            func refused(_ key: String, _ values: [String: String] = [:]) async throws -> Response {
                try await calendarsPage(request, context, .init(
                    errors: ["shareEmail": texts.text(key, values)], calendarID: id, share: form, status: .unprocessableContent))
            }
            let text = (form.email ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard let email = try? EmailAddress(text) else { return try await refused("sharingErrorEmail") }
            do {
                _ = try await shares.share(calendarID: id, owner: account, with: email, access: form.access == "read-write" ? .readWrite : .read)
            } catch let problem as CalendarShares.Problem {
                switch problem {
                case .notFound: throw HTTPError(.notFound, message: "No such calendar.")
                case .withYourself: return try await refused("sharingErrorSelf")
                case .subscriptionReadOnly: return try await refused("sharingErrorFeed")
                case .tooMany: return try await refused("sharingErrorTooMany", ["limit": String(CalendarShares.sharesPerCalendar)])
                case .computed, .invalidProperty, .notPending: return try await refused("sharingErrorEmail")
                }
            }
            return WebPage.redirect(path + "?done=shared#" + Self.anchor(id))
        }
        group.post("settings/calendars/shares/{shareId}") { _, context -> Response in
            let account = try context.requireIdentity().account
            guard let id = context.parameters.get("shareId").flatMap(UUID.init(uuidString:)) else { throw HTTPError(.notFound, message: "No such share.") }
            let form = try context.form(CalendarSettingsPages.ChoiceForm.self)
            do {
                switch form.choice {
                case "read", "read-write":
                    let share = try await shares.change(shareID: id, owner: account, access: form.choice == "read" ? .read : .readWrite)
                    return WebPage.redirect(path + "?done=accessChanged#" + Self.anchor(share.calendarID))
                case "revoke":
                    try await shares.revoke(shareID: id, owner: account)
                    return WebPage.redirect(path + "?done=unshared#calendars")
                default:
                    throw HTTPError(.badRequest, message: "Choose read, read-write or revoke.")
                }
            } catch let problem as CalendarShares.Problem {
                throw HTTPError(problem == .notFound ? .notFound : .conflict, message: problem.description)
            }
        }
        group.post("settings/calendars/incoming/{shareId}") { _, context -> Response in
            let account = try context.requireIdentity().account
            guard let id = context.parameters.get("shareId").flatMap(UUID.init(uuidString:)) else { throw HTTPError(.notFound, message: "No such share.") }
            let form = try context.form(CalendarSettingsPages.ChoiceForm.self)
            do {
                switch form.choice {
                case "accept":
                    _ = try await shares.accept(shareID: id, account: account)
                    return WebPage.redirect(path + "?done=accepted#shared-with-you")
                case "decline":
                    try await shares.decline(shareID: id, account: account)
                    return WebPage.redirect(path + "?done=declined#shared-with-you")
                default:
                    throw HTTPError(.badRequest, message: "Choose accept or decline.")
                }
            } catch let problem as CalendarShares.Problem {
                throw HTTPError(problem == .notFound ? .notFound : .conflict, message: problem.description)
            }
        }
        group.post("settings/calendars/busy-time") { request, context -> Response in
            let account = try context.requireIdentity().account
            let form = try context.form(ShareSettingsPages.BusyTimeForm.self)
            let texts = assets.texts(account.language)
            let visibility: BusyTimeVisibility
            switch form.audience {
            case "everyone": visibility = BusyTimeVisibility(audience: .everyone)
            case "named":
                switch ShareSettingsPages.addresses(form.allowed ?? "") {
                case .success(let list):
                    let others = list.filter { $0 != account.email }
                    visibility = others.isEmpty ? .nobody : BusyTimeVisibility(audience: .named, allowed: others)
                case .failure(let bad):
                    return try await calendarsPage(request, context, .init(
                        errors: ["busyAllowed": texts.text("sharingErrorBusyAddress", ["text": bad.text])], busyTime: form, status: .unprocessableContent))
                }
            default: visibility = .nobody
            }
            try await shares.setBusyTimeVisibility(visibility, of: account)
            return WebPage.redirect(path + "?done=busyTime#busy-time")
        }
    }
}
