import Foundation
import HTTPTypes
import HummingbirdTesting
import JadwalCore
@testable import JadwalServer
@testable import JadwalHTTP
@testable import JadwalAPI
@testable import JadwalWeb
@testable import JadwalCalDAV
@testable import JadwalMail
@testable import JadwalPush
@testable import JadwalLLM
@testable import JadwalJobs
import JadwalTestSupport
import Testing

@Suite("Calendars over the JSON API")
struct CalendarAPITests {
    struct Calendar: Decodable {
        let id: String; let slug: String; let displayName: String; let description: String
        let color: String?; let order: Int?; let timeZone: String?; let components: [String]; let revision: Int64
    }
    struct List: Decodable { let calendars: [Calendar] }

    @Test("the defaults, create, rename, recolour, delete", arguments: TestEnvironment.engines)
    func lifecycle(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let tokens = try await client.signIn("cal@example.com", harness: harness)
            var list = try await client.send(.get, "/api/v1/calendars", token: tokens.accessToken).json(List.self).calendars
            #expect(list.map(\.slug) == ["personal", "whatsapp-events", "tasks"])
            #expect(list.map(\.components) == [["VEVENT"], ["VEVENT"], ["VTODO"]])

            let created = try await client.send(.post, "/api/v1/calendars",
                                                json: ##"{"displayName": "Family Trips", "color": "#aa00ff", "components": ["VEVENT"]}"##,
                                                token: tokens.accessToken)
            #expect(created.status == .created, "\(created.text)")
            let trips = try created.json(Calendar.self)
            #expect(trips.slug == "family-trips" && trips.color == "#AA00FF" && trips.revision == 0)

            let arabic = try await client.send(.post, "/api/v1/calendars", json: #"{"displayName": "العائلة", "components": ["VTODO"]}"#,
                                               token: tokens.accessToken).json(Calendar.self)
            #expect(arabic.displayName == "العائلة" && arabic.components == ["VTODO"] && CalendarSlug.isValid(arabic.slug))

            let clash = try await client.send(.post, "/api/v1/calendars", json: #"{"displayName": "Family trips"}"#, token: tokens.accessToken)
            #expect(clash.status == .conflict && clash.errorCode == "calendar_exists")

            let patched = try await client.send(.patch, "/api/v1/calendars/\(trips.id)",
                                                json: #"{"displayName": "Trips", "timeZone": "Asia/Riyadh", "color": "", "order": 5}"#,
                                                token: tokens.accessToken)
            #expect(patched.status == .ok, "\(patched.text)")
            let renamed = try patched.json(Calendar.self)
            #expect(renamed.displayName == "Trips" && renamed.timeZone == "Asia/Riyadh" && renamed.color == nil && renamed.order == 5)
            #expect(renamed.revision == trips.revision + 1, "getctag moves when properties change")
            #expect(renamed.slug == "family-trips", "the URL stays")

            // Another account sees none of it.
            let other = try await client.signIn("other@example.com", harness: harness)
            #expect(try await client.send(.get, "/api/v1/calendars/\(trips.id)", token: other.accessToken).status == .notFound)
            #expect(try await client.send(.patch, "/api/v1/calendars/\(trips.id)", json: #"{"displayName": "Mine"}"#, token: other.accessToken).status == .notFound)
            #expect(try await client.send(.delete, "/api/v1/calendars/\(trips.id)", token: other.accessToken).status == .notFound)

            #expect(try await client.send(.delete, "/api/v1/calendars/\(trips.id)", token: tokens.accessToken).status == .noContent)
            #expect(try await client.send(.get, "/api/v1/calendars/\(trips.id)", token: tokens.accessToken).status == .notFound)
            list = try await client.send(.get, "/api/v1/calendars", token: tokens.accessToken).json(List.self).calendars
            #expect(list.count == 4)
        }
    }

    @Test("bad calendar requests name the field")
    func badInput() async throws {
        try await ServerHarness.run { harness, client in
            let tokens = try await client.signIn("badcal@example.com", harness: harness)
            let bad = [
                #"{"displayName": ""}"#, #"{"displayName": "\#(String(repeating: "x", count: 201))"}"#,
                #"{"displayName": "A", "color": "greenish"}"#, ##"{"displayName": "A", "color": "#12345"}"##,
                #"{"displayName": "A", "timeZone": "Moon/Base"}"#, #"{"displayName": "A", "components": []}"#,
                #"{"displayName": "A", "components": ["VCARD"]}"#, #"{"displayName": "A", "slug": "Bad Slug!"}"#,
                #"{"displayName": "A", "order": -1}"#, #"{"displayName": 3}"#,
            ]
            for body in bad {
                let response = try await client.send(.post, "/api/v1/calendars", json: body, token: tokens.accessToken)
                #expect(response.status == .badRequest, "\(body): \(response.text)")
                #expect(response.errorCode == "invalid_field", "\(body)")
            }
            #expect(try await client.send(.post, "/api/v1/calendars", json: "{}", token: tokens.accessToken).errorCode == "missing_field")
            #expect(try await client.send(.get, "/api/v1/calendars/not-an-id", token: tokens.accessToken).status == .notFound)
            #expect(try await client.send(.get, "/api/v1/calendars").status == .unauthorized)
            let personal = try await client.send(.get, "/api/v1/calendars", token: tokens.accessToken).json(List.self).calendars[0]
            let response = try await client.send(.patch, "/api/v1/calendars/\(personal.id)", json: ##"{"color": "#zzzzzz"}"##, token: tokens.accessToken)
            #expect(response.status == .badRequest && response.errorCode == "invalid_field")
        }
    }
}
