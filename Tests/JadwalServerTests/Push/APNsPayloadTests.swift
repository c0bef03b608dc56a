import Crypto
import Foundation
import JadwalTestSupport
import Testing

@testable import JadwalServer
import JadwalCore
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalMail
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs

enum APNsSamples {
    static let dinner = PushEvent(
        uid: "dinner-1@jadwal", title: "Dinner with Sara", start: Date(timeIntervalSince1970: 1_790_010_000),
        end: Date(timeIntervalSince1970: 1_790_017_200), calendar: "whatsapp-events", timeZone: "Asia/Riyadh",
        location: "Al Nakheel", description: "Agreed in the family chat")

    static func alert(event: PushEvent? = dinner, id: UUID = UUID()) -> PushNotification {
        PushNotification(
            id: id, presentation: .alert(PushAlert(title: "Added: Dinner with Sara", body: "Thu 20:00 — conflicts with Gym", threadID: "conflicts")),
            kind: "event-added", event: event, expiration: Date(timeIntervalSince1970: 1_790_100_000), collapseID: "event-added:dinner-1")
    }

    static func background(event: PushEvent? = dinner, id: UUID = UUID()) -> PushNotification {
        PushNotification(id: id, presentation: .background, kind: "event-added", event: event)
    }
}

@Suite("APNs payload, answers and settings")
struct APNsPayloadTests {
    @Test("an alert: aps alert, default sound and thread-id; jadwal kind and the event with UTC instants")
    func alertJSON() throws {
        let data = try APNsPayload.encode(APNsSamples.alert())
        #expect(String(decoding: data, as: UTF8.self) == """
            {"aps":{"alert":{"body":"Thu 20:00 — conflicts with Gym","title":"Added: Dinner with Sara"},"sound":"default","thread-id":"conflicts"},\
            "jadwal":{"event":{"allDay":false,"calendar":"whatsapp-events","description":"Agreed in the family chat","end":"2026-09-21T19:00:00Z",\
            "location":"Al Nakheel","start":"2026-09-21T17:00:00Z","timeZone":"Asia/Riyadh","title":"Dinner with Sara","uid":"dinner-1@jadwal"},\
            "kind":"event-added"}}
            """)
    }

    @Test("a background push: only content-available in aps, and the event for the app's own conflict check")
    func backgroundJSON() throws {
        let data = try APNsPayload.encode(APNsSamples.background(event: PushEvent(
            uid: "u", title: "Gym", start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 3600), calendar: "personal",
            recurrenceID: Date(timeIntervalSince1970: 0))))
        #expect(String(decoding: data, as: UTF8.self) == """
            {"aps":{"content-available":1},"jadwal":{"event":{"allDay":false,"calendar":"personal","end":"1970-01-01T01:00:00Z",\
            "recurrenceID":"1970-01-01T00:00:00Z","start":"1970-01-01T00:00:00Z","title":"Gym","uid":"u"},"kind":"event-added"}}
            """)
        let notification = APNsSamples.background()
        #expect(notification.pushType == "background" && notification.priority == 5)
        #expect(APNsSamples.alert().pushType == "alert" && APNsSamples.alert().priority == 10)
    }

    @Test("a long description is shortened at a whole Arabic letter to fit 4096 bytes; the rest of the event stays")
    func descriptionShortened() throws {
        var event = APNsSamples.dinner
        event.description = String(repeating: "عشاء مع سارة ", count: 400)
        let data = try APNsPayload.encode(APNsSamples.background(event: event))
        #expect(data.count <= APNsPayload.maximumBytes)
        #expect(data.count > APNsPayload.maximumBytes - 16, "shortened no more than needed: \(data.count)")
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let sent = try #require((json["jadwal"] as? [String: Any])?["event"] as? [String: Any])
        let description = try #require(sent["description"] as? String)
        #expect(description.hasSuffix("…"))
        #expect(try #require(event.description).hasPrefix(String(description.dropLast())))
        #expect(sent["uid"] as? String == event.uid && sent["title"] as? String == event.title)
    }

    @Test("a payload too large without any description is refused with a typed error")
    func tooLarge() throws {
        var notification = APNsSamples.alert()
        notification.presentation = .alert(PushAlert(title: "Long", body: String(repeating: "x", count: 5000)))
        #expect(throws: PushNotificationError.payloadTooLarge(bytes: try payloadSize(notification), limit: 4096)) {
            try APNsPayload.encode(notification)
        }
    }

    private func payloadSize(_ notification: PushNotification) throws -> Int {
        var without = notification
        without.event?.description = nil
        return APNsPayload.body(without, event: without.event).count
    }

    @Test("device tokens: hex of 64 or more digits, lowercased; spaces and brackets dropped; anything else refused")
    func deviceTokens() {
        let token = String(repeating: "ab12", count: 16)
        #expect(APNsDeviceToken.normalized(token) == token)
        #expect(APNsDeviceToken.normalized(token.uppercased()) == token)
        #expect(APNsDeviceToken.normalized("<" + token.prefix(8) + " " + token.dropFirst(8) + ">") == token)
        #expect(APNsDeviceToken.normalized(String(token.dropLast(2))) == nil, "62 digits")
        #expect(APNsDeviceToken.normalized(token + "a") == nil, "odd")
        #expect(APNsDeviceToken.normalized(String(token.dropLast()) + "g") == nil)
        #expect(APNsDeviceToken.normalized(token + "/../x") == nil)
        #expect(APNsDeviceToken.normalized(String(repeating: "ab", count: 101)) == nil, "over 200 digits")
    }

    @Test("APNs answers read as Apple documents them")
    func answers() {
        let sent = UUID()
        func outcome(_ status: Int, _ reason: String?, timestamp: Double? = nil) -> PushOutcome {
            var json: [String: Any] = [:]
            if let reason { json["reason"] = reason }
            if let timestamp { json["timestamp"] = timestamp }
            let body = json.isEmpty ? Data() : (try? JSONSerialization.data(withJSONObject: json)) ?? Data()
            return APNsAnswer(status: status, apnsIDHeader: sent.uuidString.lowercased(), body: body).outcome(sentID: sent)
        }
        #expect(outcome(200, nil) == .delivered(apnsID: sent))
        #expect(outcome(410, "Unregistered", timestamp: 1_790_000_000_123) == .deviceGone(
            reason: "Unregistered", since: Date(timeIntervalSince1970: 1_790_000_000.123)))
        #expect(outcome(410, "ExpiredToken") == .deviceGone(reason: "ExpiredToken", since: nil))
        #expect(outcome(400, "BadDeviceToken") == .deviceGone(reason: "BadDeviceToken", since: nil))
        #expect(outcome(400, "DeviceTokenNotForTopic") == .deviceGone(reason: "DeviceTokenNotForTopic", since: nil))
        #expect(outcome(400, "BadTopic") == .rejected(reason: "400 BadTopic"))
        #expect(outcome(400, "IdleTimeout") == .retryLater(reason: "IdleTimeout"))
        #expect(outcome(403, "ExpiredProviderToken") == .rejected(reason: "403 ExpiredProviderToken"), "after the one retry")
        #expect(outcome(413, "PayloadTooLarge") == .rejected(reason: "413 PayloadTooLarge"))
        #expect(outcome(429, "TooManyRequests") == .retryLater(reason: "TooManyRequests"))
        #expect(outcome(429, "TooManyProviderTokenUpdates") == .retryLater(reason: "TooManyProviderTokenUpdates"))
        #expect(outcome(500, "InternalServerError") == .retryLater(reason: "InternalServerError"))
        #expect(outcome(503, "Shutdown") == .retryLater(reason: "Shutdown"))
        #expect(outcome(502, nil) == .retryLater(reason: "HTTP 502"))
        #expect(outcome(404, "BadPath") == .rejected(reason: "404 BadPath"))
        #expect(APNsAnswer(status: 403, apnsID: nil, reason: "ExpiredProviderToken", timestamp: nil).isProviderTokenRefusal)
        #expect(APNsAnswer(status: 403, apnsID: nil, reason: "InvalidProviderToken", timestamp: nil).isProviderTokenRefusal)
        #expect(!APNsAnswer(status: 403, apnsID: nil, reason: "MissingProviderToken", timestamp: nil).isProviderTokenRefusal)
    }

    @Test("settings: off when none is set; all four required together, the missing ones named; files read at startup")
    func settings() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jadwal-apns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("AuthKey_ABC123DEFG.p8").path
        try APNsKnownKey.privatePEM.write(toFile: keyFile, atomically: true, encoding: .utf8)
        let caFile = directory.appendingPathComponent("ca.pem").path
        try APNsTestCertificate().pem.write(toFile: caFile, atomically: true, encoding: .utf8)
        let complete = [
            "JADWAL_APNS_KEY_FILE": keyFile, "JADWAL_APNS_KEY_ID": "ABC123DEFG", "JADWAL_APNS_TEAM_ID": "DEF123GHIJ",
            "JADWAL_APNS_TOPIC": "com.example.jadwal",
        ]
        func problem(_ environment: [String: String]) -> String {
            do {
                _ = try ConfigurationValue.apns(environment: environment)
                return "accepted"
            } catch {
                return "\(error)"
            }
        }

        #expect(try ConfigurationValue.apns(environment: [:]) == nil)
        #expect(try ConfigurationValue.apns(environment: ["JADWAL_APNS_KEY_ID": " "]) == nil, "blank is unset")
        let production = try #require(try ConfigurationValue.apns(environment: complete))
        #expect(production.endpoint == "https://api.push.apple.com")
        #expect(production.keyID == "ABC123DEFG" && production.teamID == "DEF123GHIJ" && production.topic == "com.example.jadwal")
        #expect(production.signingKey.publicKey.rawRepresentation
            == (try P256.Signing.PublicKey(pemRepresentation: APNsKnownKey.publicPEM)).rawRepresentation)
        #expect(production.additionalTrustRoots.isEmpty)

        var sandbox = complete
        sandbox["JADWAL_APNS_ENDPOINT"] = "sandbox"
        #expect(try ConfigurationValue.apns(environment: sandbox)?.endpoint == "https://api.sandbox.push.apple.com")
        sandbox["JADWAL_APNS_ENDPOINT"] = "https://127.0.0.1:8443/"
        sandbox["JADWAL_APNS_CA_FILE"] = caFile
        let local = try #require(try ConfigurationValue.apns(environment: sandbox))
        #expect(local.endpoint == "https://127.0.0.1:8443")
        #expect(local.additionalTrustRoots.count == 1)

        var partial = complete
        partial["JADWAL_APNS_TEAM_ID"] = nil
        partial["JADWAL_APNS_TOPIC"] = ""
        #expect(problem(partial).contains("JADWAL_APNS_TEAM_ID, JADWAL_APNS_TOPIC are not"), "\(problem(partial))")
        #expect(problem(["JADWAL_APNS_ENDPOINT": "sandbox"]).contains(
            "JADWAL_APNS_KEY_FILE, JADWAL_APNS_KEY_ID, JADWAL_APNS_TEAM_ID, JADWAL_APNS_TOPIC are not"))
        #expect(problem(complete.merging(["JADWAL_APNS_KEY_FILE": directory.appendingPathComponent("missing.p8").path]) { $1 })
            .contains("JADWAL_APNS_KEY_FILE: cannot read"))
        #expect(problem(complete.merging(["JADWAL_APNS_KEY_FILE": caFile]) { $1 }).contains("is not a P-256 private key"))
        #expect(problem(complete.merging(["JADWAL_APNS_KEY_ID": "ABC 123"]) { $1 }).hasPrefix("JADWAL_APNS_KEY_ID must be"))
        #expect(problem(complete.merging(["JADWAL_APNS_TOPIC": "com.example jadwal"]) { $1 }).hasPrefix("JADWAL_APNS_TOPIC must be"))
        #expect(problem(complete.merging(["JADWAL_APNS_ENDPOINT": "http://api.push.apple.com"]) { $1 }).hasPrefix("JADWAL_APNS_ENDPOINT must be"))
        #expect(problem(complete.merging(["JADWAL_APNS_ENDPOINT": "https://api.push.apple.com/3/device"]) { $1 }).hasPrefix("JADWAL_APNS_ENDPOINT must be"))
        #expect(problem(complete.merging(["JADWAL_APNS_CA_FILE": keyFile]) { $1 }).hasPrefix("JADWAL_APNS_CA_FILE"))
    }
}
