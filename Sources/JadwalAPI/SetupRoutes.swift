import DAV
import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP
import NIOCore

/// Easy Setup: the signed-in person asks for a one-time link; opening it on the device
/// (`GET /setup/<token>.mobileconfig`) downloads a configuration profile and the link stops
/// working. `POST /api/v1/setup/caldav` makes a CalDAV account with a fresh app password (its
/// calendars include Prayer Times); `POST /api/v1/setup/prayer-times` makes a profile that only
/// subscribes to the prayer times, for a device that should not sync everything.
package struct SetupRoutes: Sendable {
    package let setup: EasySetup
    package let publicURL: String
    package let hub: NotificationHub
    /// Where a profile's fresh UUIDs come from.
    package let random: RandomSource

    package init(setup: EasySetup, publicURL: String, hub: NotificationHub, random: RandomSource) {
        self.setup = setup
        self.publicURL = publicURL
        self.hub = hub
        self.random = random
    }

    package struct SetupRequest: Decodable { let deviceName: String? }

    package func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.post("setup/caldav") { request, context in
            try await createLink(.caldav, request: request, context: context)
        }
        group.post("setup/prayer-times") { request, context in
            try await createLink(.prayerSubscription, request: request, context: context)
        }
    }

    private func createLink(_ kind: SetupToken.Kind, request: Request, context: JadwalRequestContext) async throws -> Response {
        let accountID = try context.requireIdentity().account.id
        let body = PrayerRoutes.hasBody(request) ? try await request.decodeJSON(as: SetupRequest.self) : SetupRequest(deviceName: nil)
        let link: EasySetup.Link
        do {
            link = try await setup.issueLink(kind, accountID: accountID, deviceName: body.deviceName)
        } catch EasySetup.Problem.invalidDeviceName {
            throw APIError.badRequest("invalid_field", "Field 'deviceName' must be at most 100 characters without control characters.")
        } catch EasySetup.Problem.prayerNotSet {
            throw APIError(.conflict, code: "prayer_settings_not_set", message: "Set your place first: PUT /api/v1/prayer-settings.")
        }
        return try JSONResponse(link, status: .created).response(from: request, context: context)
    }

    package func addProfileRoute(to router: RouterGroup<JadwalRequestContext>) {
        router.get("setup/{file}") { _, context -> Response in
            let notFound = APIError.notFound("No setup link at this address. Create a new one in Jadwal's settings.")
            guard let file = context.parameters.get("file"), file.hasSuffix(".mobileconfig") else { throw notFound }
            let claim: EasySetup.Claim
            do {
                claim = try await setup.claim(String(file.dropLast(".mobileconfig".count)))
            } catch EasySetup.Problem.notFound {
                throw notFound
            } catch EasySetup.Problem.spent {
                throw APIError(.gone, code: "setup_link_spent", message: "This setup link was already used or has expired (links last 15 minutes). Create a new one.")
            }
            hub.wake(claim.account.id)
            let subscriptions = claim.prayerFeedURL.map {
                [ConfigurationProfile.Subscription(description: claim.account.language == .arabic ? "مواقيت الصلاة" : "Prayer Times", url: $0)]
            } ?? []
            let profile = try Self.profile(account: claim.account, password: claim.appPassword, publicURL: publicURL, subscriptions: subscriptions, random: random)
            return Response(
                status: .ok,
                headers: [
                    .contentType: ConfigurationProfile.contentType, .contentDisposition: "attachment; filename=\"Jadwal.mobileconfig\"",
                    .cacheControl: "no-store",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: try profile.data())))
        }
    }

    package static func profile(
        account: Account, password: String?, publicURL: String, subscriptions: [ConfigurationProfile.Subscription], random: RandomSource
    ) throws -> ConfigurationProfile {
        guard let url = URLComponents(string: publicURL), let host = url.host, !host.isEmpty else {
            throw APIError(.internalServerError, code: "public_url", message: "The server's public URL is not set correctly (--public-url).")
        }
        let secure = url.scheme?.lowercased() == "https"
        let port = url.port ?? (secure ? 443 : 80)
        return ConfigurationProfile(
            displayName: "Jadwal",
            identifierPrefix: "jadwal." + host.split(separator: ".").reversed().joined(separator: "."),
            account: password.map {
                .init(
                    description: "Jadwal (\(account.email.value))", hostName: host, port: port, useSSL: secure,
                    principalURL: publicURL + DAVHref.principal(account.id), username: account.email.value, password: $0)
            },
            subscriptions: subscriptions, random: random)
    }
}
