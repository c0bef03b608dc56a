import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP

/// `/api/v1/app-passwords`: passwords for CalDAV clients, one per device.
package struct AppPasswordRoutes: Sendable {
    package let appPasswords: AppPasswords

    package init(appPasswords: AppPasswords) {
        self.appPasswords = appPasswords
    }

    package struct CreateRequest: Decodable { let name: String }

    package struct AppPasswordView: Encodable, Sendable {
        package let id: String
        package let name: String
        package let createdAt: Date
        package let lastUsedAt: Date?
        /// Only in the answer that created it.
        package let password: String?
        /// The CalDAV user name to type beside it.
        package let username: String?
    }

    package struct AppPasswordList: Encodable, Sendable { let appPasswords: [AppPasswordView] }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.post("app-passwords") { request, context in
            let identity = try context.requireIdentity()
            let body = try await request.decodeJSON(as: CreateRequest.self)
            guard let name = AppPassword.validName(body.name) else {
                throw APIError.badRequest(
                    "invalid_field", "Field 'name' must name the device in 1 to \(AppPassword.nameLimit) characters, e.g. \"Sara's iPhone\".")
            }
            let (record, password) = try await appPasswords.create(accountID: identity.account.id, name: name)
            return JSONResponse(
                AppPasswordView(id: record.id.uuidString, name: record.name, createdAt: record.createdAt, lastUsedAt: nil,
                                password: password, username: identity.account.email.value),
                status: .created
            )
        }
        group.get("app-passwords") { _, context in
            let accountID = try context.requireIdentity().account.id
            let passwords = try await appPasswords.active(accountID: accountID)
            return JSONResponse(AppPasswordList(appPasswords: passwords.map {
                AppPasswordView(id: $0.id.uuidString, name: $0.name, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt, password: nil, username: nil)
            }))
        }
        group.delete("app-passwords/{id}") { _, context -> Response in
            let accountID = try context.requireIdentity().account.id
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw APIError.notFound("No app password with that ID.") }
            guard try await appPasswords.revoke(id: id, accountID: accountID) else {
                throw APIError.notFound("No app password with that ID.")
            }
            return Response(status: .noContent)
        }
    }
}
