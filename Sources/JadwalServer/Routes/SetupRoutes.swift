import Foundation
import Hummingbird
import JadwalCore
import NIOCore

/// Easy Setup: the signed-in person asks for a one-time link; opening it on the device
/// (`GET /setup/<token>.mobileconfig`) downloads a configuration profile and the link stops
/// working. `POST /api/v1/setup/caldav` makes a CalDAV account with a fresh app password (its
/// calendars include Prayer Times); `POST /api/v1/setup/prayer-times` makes a profile that only
/// subscribes to the prayer times, for a device that should not sync everything.
struct SetupRoutes: Sendable {
    let store: any Store
    let clock: Clock
    let random: RandomSource
    let appPasswords: AppPasswords
    let publicURL: String
    let hub: NotificationHub

    struct SetupRequest: Decodable { let deviceName: String? }
    struct SetupView: Encodable, Sendable { let url: String; let expiresAt: Date; let deviceName: String }

    func addRoutes(to group: RouterGroup<JadwalRequestContext>) {
        group.post("setup/caldav") { request, context in
            try await createLink(.caldav, request: request, context: context)
        }
        group.post("setup/prayer-times") { request, context in
            let accountID = try context.requireIdentity().account.id
            guard try await store.read({ tx in try await tx.prayerSettings(accountID: accountID) }) != nil else {
                throw APIError(.conflict, code: "prayer_settings_not_set", message: "Set your place first: PUT /api/v1/prayer-settings.")
            }
            return try await createLink(.prayerSubscription, request: request, context: context)
        }
    }

    private func createLink(_ kind: SetupToken.Kind, request: Request, context: JadwalRequestContext) async throws -> Response {
        let accountID = try context.requireIdentity().account.id
        let body = PrayerRoutes.hasBody(request) ? try await request.decodeJSON(as: SetupRequest.self) : SetupRequest(deviceName: nil)
        guard let deviceName = SetupToken.deviceName(body.deviceName) else {
            throw APIError.badRequest("invalid_field", "Field 'deviceName' must be at most 100 characters without control characters.")
        }
        return try JSONResponse(try await issueLink(kind, accountID: accountID, deviceName: deviceName), status: .created)
            .response(from: request, context: context)
    }

    /// A new one-time link (the API's POST and the settings page's button).
    func issueLink(_ kind: SetupToken.Kind, accountID: UUID, deviceName: String) async throws -> SetupView {
        let token = SecretToken(random: random)
        let now = clock.now
        let record = SetupToken(
            digest: token.digest, kind: kind, accountID: accountID, deviceName: deviceName, createdAt: now, expiresAt: now + SetupToken.lifetime)
        try await store.transaction { tx in try await tx.insertSetupToken(record) }
        return SetupView(url: "\(publicURL)/setup/\(token.value).mobileconfig", expiresAt: record.expiresAt, deviceName: deviceName)
    }

    func addProfileRoute(to router: Router<JadwalRequestContext>) {
        router.get("setup/{file}") { _, context -> Response in
            let notFound = APIError.notFound("No setup link at this address. Create a new one in Jadwal's settings.")
            guard let file = context.parameters.get("file"), file.hasSuffix(".mobileconfig") else { throw notFound }
            let token = SecretToken(presented: String(file.dropLast(".mobileconfig".count)))
            let now = clock.now
            // Spent before anything else happens, so two downloads cannot both get a password.
            let claimed = try await store.transaction { tx -> (SetupToken, Account, PrayerSettings?)? in
                guard let setup = try await tx.setupToken(digest: token.digest) else { return nil }
                guard setup.usedAt == nil, setup.expiresAt > now else {
                    throw APIError(.gone, code: "setup_link_spent", message: "This setup link was already used or has expired (links last 15 minutes). Create a new one.")
                }
                guard let account = try await tx.account(id: setup.accountID), !account.isDisabled else { return nil }
                guard try await tx.markSetupTokenUsed(digest: token.digest, at: now) else {
                    throw APIError(.gone, code: "setup_link_spent", message: "This setup link was already used. Create a new one.")
                }
                let text = NotificationText(account: account).setupDone(device: setup.deviceName)
                try await NotificationDispatch.post(
                    NotificationDraft(
                        kind: .setupDone, reasonKey: "setup:\(token.digest.hex)", title: text.title, body: text.body, urgent: true),
                    account: account, now: now, tx: tx)
                return (setup, account, try await tx.prayerSettings(accountID: account.id))
            }
            guard let (setup, account, prayerSettings) = claimed else { throw notFound }
            hub.wake(account.id)
            var password: String?
            var subscriptions: [ConfigurationProfile.Subscription] = []
            switch setup.kind {
            case .caldav:
                password = try await appPasswords.create(accountID: account.id, name: setup.deviceName).1
            case .prayerSubscription:
                guard prayerSettings != nil else { throw notFound }
                // A feed of its own, so this device's subscription does not end another's.
                let feedToken = SecretToken(random: random)
                let feed = CalendarFeed(digest: feedToken.digest, accountID: account.id, kind: .prayerTimes, alarmMinutesBefore: nil, createdAt: now)
                try await store.transaction { tx in try await tx.insertCalendarFeed(feed) }
                subscriptions.append(.init(
                    description: account.language == .arabic ? "مواقيت الصلاة" : "Prayer Times", url: "\(publicURL)/feeds/\(feedToken.value).ics"))
            }
            let profile = try Self.profile(account: account, password: password, publicURL: publicURL, subscriptions: subscriptions)
            return Response(
                status: .ok,
                headers: [
                    .contentType: ConfigurationProfile.contentType, .contentDisposition: "attachment; filename=\"Jadwal.mobileconfig\"",
                    .cacheControl: "no-store",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: try profile.data())))
        }
    }

    static func profile(
        account: Account, password: String?, publicURL: String, subscriptions: [ConfigurationProfile.Subscription]
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
            subscriptions: subscriptions)
    }
}
