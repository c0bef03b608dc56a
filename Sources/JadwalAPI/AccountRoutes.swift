import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP

/// `/api/v1/me` and `/api/v1/sessions`: the signed-in person's profile and devices.
package struct AccountRoutes: Sendable {
    package let profiles: Profiles

    package init(profiles: Profiles) {
        self.profiles = profiles
    }

    package struct ProfilePatch: Decodable {
        package let name: String?
        package let timeZone: String?
        package let language: String?
        package let showHijri: Bool?
    }

    package struct SessionView: Encodable, Sendable {
        package let id: String
        package let method: String
        package let createdAt: Date
        package let lastUsedAt: Date
        package let expiresAt: Date
        package let userAgent: String?
        package let clientAddress: String?
        package let current: Bool
    }

    package struct SessionList: Encodable, Sendable { let sessions: [SessionView] }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.get("me") { _, context in JSONResponse(AccountView(try context.requireIdentity().account)) }
        group.patch("me") { request, context in try await updateProfile(request, context) }
        group.get("sessions") { _, context in try await sessions(context) }
        group.delete("sessions/{id}") { _, context in try await revoke(context) }
    }

    private func updateProfile(_ request: Request, _ context: JadwalRequestContext) async throws -> JSONResponse<AccountView> {
        let patch = try await request.decodeJSON(as: ProfilePatch.self)
        var language: Language?
        if let code = patch.language {
            guard let parsed = Language(rawValue: code) else {
                throw APIError.badRequest(
                    "invalid_field", "Field 'language' must be one of: \(Language.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            language = parsed
        }
        let change = ProfileChange(name: patch.name, timeZone: patch.timeZone, language: language, showHijri: patch.showHijri)
        let updated: Account
        do {
            updated = try await profiles.save(change, accountID: try context.requireIdentity().account.id)
        } catch Profiles.Problem.noAccount {
            throw APIError.notFound("The account no longer exists.")
        }
        return JSONResponse(AccountView(updated))
    }

    private func sessions(_ context: JadwalRequestContext) async throws -> JSONResponse<SessionList> {
        let identity = try context.requireIdentity()
        let sessions = try await profiles.activeSessions(accountID: identity.account.id)
        return JSONResponse(SessionList(sessions: sessions.map { session in
            SessionView(
                id: session.id.uuidString, method: session.method.rawValue, createdAt: session.createdAt, lastUsedAt: session.lastUsedAt,
                expiresAt: session.expiresAt, userAgent: session.userAgent, clientAddress: session.clientAddress,
                current: session.id == identity.session.id
            )
        }))
    }

    private func revoke(_ context: JadwalRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        // Another account's session answers exactly like a missing one.
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else {
            throw APIError.notFound("No session with that ID.")
        }
        let found = try await profiles.revokeSession(id: id, accountID: identity.account.id)
        guard found else { throw APIError.notFound("No session with that ID.") }
        return Response(status: .noContent)
    }
}
