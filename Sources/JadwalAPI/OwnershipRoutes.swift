import Foundation
import HTTPTypes
import Hummingbird
import JadwalCore
import JadwalHTTP
import PrayerTimes

/// Owning one's account over the API: the first-run guide's state and proposals, a new sign-in
/// address, the export, and deletion. The rules are `AccountOwnership`'s services.
package struct OwnershipRoutes: Sendable {
    package let ownership: AccountOwnership

    package init(ownership: AccountOwnership) {
        self.ownership = ownership
    }

    package struct FirstRunView: Encodable, Sendable {
        package struct Proposal: Encodable, Sendable {
            package struct Place: Encodable, Sendable {
                let city: String
                let cityArabic: String
                let countryCode: String
                let latitude: Double
                let longitude: Double
                let timeZone: String
            }

            let timeZone: String
            /// nil when the zone has no city of the built-in list.
            let place: Place?
            let method: String?
        }

        /// `pending`, `completed` or `skipped`.
        let state: String
        let finishedAt: Date?
        let proposal: Proposal
    }

    struct FirstRunChange: Decodable {
        let state: String
    }

    struct NewAddress: Decodable {
        let email: String
    }

    struct LinkToken: Decodable {
        let token: String
    }

    struct DeletionConfirmation: Decodable {
        /// The account's address, typed.
        let confirmEmail: String?
        /// Or the token of a deletion link emailed to it.
        let token: String?
    }

    struct Accepted: Encodable, Sendable {
        let message: String
    }

    struct Deleted: Encodable, Sendable {
        let deleted: String
    }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("first-run") { request, context in
            let account = try context.requireIdentity().account
            let zone = request.uri.queryParameters.get("timeZone") ?? account.timeZone
            guard IANATimeZone.isKnown(zone) else {
                throw APIError.badRequest("invalid_field", "Query 'timeZone' must be an IANA time zone such as Asia/Riyadh, not \(zone).")
            }
            return JSONResponse(Self.view(try await ownership.firstRun.status(accountID: account.id), proposal: FirstRun.Proposal(timeZone: zone)))
        }
        group.put("first-run") { request, context in
            let account = try context.requireIdentity().account
            let change = try await request.decodeJSON(as: FirstRunChange.self)
            guard let state = FirstRunRecord.State(rawValue: change.state) else {
                throw APIError.badRequest("invalid_field", "Field 'state' must be completed or skipped, not \(change.state).")
            }
            let record = try await ownership.firstRun.finish(state, accountID: account.id)
            return JSONResponse(Self.view(.finished(record), proposal: FirstRun.Proposal(timeZone: account.timeZone)))
        }
        group.post("me/email") { request, context -> Response in
            let account = try context.requireIdentity().account
            let body = try await request.decodeJSON(as: NewAddress.self)
            let email: EmailAddress
            do throws(EmailAddress.Problem) {
                email = try EmailAddress(body.email)
            } catch {
                throw APIError.badRequest("invalid_field", "Field 'email': \(error.description).")
            }
            try await ownership.emailChanges.request(email, accountID: account.id)
            // The same answer whether or not another account has the address.
            return try JSONResponse(
                Accepted(message: "A link to confirm the change was sent to \(email.value). The address changes when it is opened (within 15 minutes)."),
                status: .accepted
            ).response(from: request, context: context)
        }
        group.get("account/export") { _, context -> Response in
            let account = try context.requireIdentity().account
            let files = try await ownership.export.files(accountID: account.id)
            return CalendarDownload.zipResponse(
                try CalendarDownload.archive(files.map { (path: $0.path, data: $0.data) }), named: ownership.export.fileName())
        }
        group.post("me/deletion-link") { request, context -> Response in
            let account = try context.requireIdentity().account
            try await ownership.deletion.requestLink(accountID: account.id)
            return try JSONResponse(
                Accepted(message: "A link that deletes the account was sent to \(account.email.value). It works once, within 15 minutes."),
                status: .accepted
            ).response(from: request, context: context)
        }
        group.delete("me") { request, context in
            let account = try context.requireIdentity().account
            let body = try await request.decodeJSONIfPresent(as: DeletionConfirmation.self)
            let confirmation: AccountDeletion.Confirmation
            if let typed = body?.confirmEmail {
                confirmation = .typedEmail(typed)
            } else if let token = body?.token {
                confirmation = .link(SecretToken(presented: token))
            } else {
                throw APIError.badRequest(
                    "confirmation_required",
                    "Deleting the account cannot be undone. Send {\"confirmEmail\": \"<the account's address>\"}, or the token of a link from POST /api/v1/me/deletion-link as {\"token\": …}.")
            }
            let deleted = try await ownership.deletion.delete(accountID: account.id, confirmation: confirmation)
            return JSONResponse(Deleted(deleted: deleted.email.value))
        }
    }

    /// Confirming a new address needs no session: the link may be opened on another device,
    /// and the token is the proof.
    package func addPublicRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.post("account/email/confirm") { request, _ in
            let body = try await request.decodeJSON(as: LinkToken.self)
            let account = try await ownership.emailChanges.confirm(SecretToken(presented: body.token))
            return JSONResponse(AccountView(account))
        }
    }

    static func view(_ status: FirstRun.Status, proposal: FirstRun.Proposal) -> FirstRunView {
        var finishedAt: Date?
        if case .finished(let record) = status { finishedAt = record.at }
        return FirstRunView(
            state: status.name, finishedAt: finishedAt,
            proposal: .init(
                timeZone: proposal.timeZone,
                place: proposal.city.map {
                    .init(city: $0.englishName, cityArabic: $0.arabicName, countryCode: $0.countryCode, latitude: $0.coordinates.latitude,
                          longitude: $0.coordinates.longitude, timeZone: $0.timeZoneIdentifier)
                },
                method: proposal.method?.rawValue))
    }
}

extension APIError {
    package init(_ problem: EmailChanges.Problem) {
        switch problem {
        case .sameAddress: self = .badRequest("same_address", "That is already this account's address.")
        case .rateLimited(let seconds):
            self.init(.tooManyRequests, code: "rate_limited", message: "Too many changes were asked for. Try again in \(seconds) seconds.",
                      headers: [.retryAfter: String(seconds)])
        case .unknownLink: self = .badRequest("invalid_link", "This link is not valid. Ask for the change again.")
        case .expiredLink: self.init(.gone, code: "link_expired", message: "This link has expired (links last 15 minutes). Ask for the change again.")
        case .usedLink: self.init(.conflict, code: "link_used", message: "This link was used already.")
        case .addressTaken:
            self.init(.conflict, code: "address_taken", message: "Another account signs in with this address, so the change was not made.")
        case .noAccount: self = .notFound("The account no longer exists.")
        }
    }

    package init(_ problem: AccountDeletion.Problem) {
        switch problem {
        case .noAccount: self = .notFound("The account no longer exists.")
        case .emailMismatch:
            self = .badRequest("email_mismatch", "Field 'confirmEmail' must be this account's address, typed out, to delete it.")
        case .unknownLink: self = .badRequest("invalid_link", "This link is not valid for this account. Ask for a new one.")
        case .expiredLink: self.init(.gone, code: "link_expired", message: "This link has expired (links last 15 minutes). Ask for a new one.")
        case .usedLink: self.init(.conflict, code: "link_used", message: "This link was used already.")
        case .rateLimited(let seconds):
            self.init(.tooManyRequests, code: "rate_limited", message: "Too many links were asked for. Try again in \(seconds) seconds.",
                      headers: [.retryAfter: String(seconds)])
        }
    }
}
