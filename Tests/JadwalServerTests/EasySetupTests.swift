import DAV
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
import NIOCore
import Testing

@Suite("Easy Setup (.mobileconfig)")
struct EasySetupTests {
    struct Setup: Decodable { let url: String; let expiresAt: Date; let deviceName: String }

    /// Python's plistlib reads the profile: a second, independent property-list parser. Prints
    /// the CalDAV payload's fields and the subscription URLs as JSON.
    static func readWithPython(_ data: Data) throws -> [String: String]? {
        guard let python = TestEnvironment.python else {
            if TestEnvironment.isCI { Issue.record("JADWAL_TEST_PYTHON is not set: CI must check the profile with Python's plistlib") }
            return nil
        }
        let file = try TestEnvironment.temporaryDirectory("jadwal-profile").appendingPathComponent("Jadwal.mobileconfig")
        try data.write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", """
            import json, plistlib, sys
            profile = plistlib.load(open(sys.argv[1], 'rb'))
            assert profile['PayloadType'] == 'Configuration' and profile['PayloadVersion'] == 1
            payloads = profile['PayloadContent']
            caldav = [p for p in payloads if p['PayloadType'] == 'com.apple.caldav.account']
            assert len(caldav) <= 1, payloads
            out = {k: str(v) for k, v in (caldav[0] if caldav else {}).items() if k.startswith('CalDAV')}
            out['subscriptions'] = ' '.join(p['SubCalAccountHostName'] for p in payloads if p['PayloadType'] == 'com.apple.subscribedcalendar.account')
            assert len({p['PayloadUUID'] for p in payloads} | {profile['PayloadUUID']}) == len(payloads) + 1, 'UUIDs must be distinct'
            print(json.dumps(out))
            """, file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        process.waitUntilExit()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        try #require(process.terminationStatus == 0, "plistlib refused the profile: \(String(decoding: printed, as: UTF8.self))")
        return try JSONDecoder().decode([String: String].self, from: printed)
    }

    @Test("a one-time link gives a profile with a working app password; the link then stops working")
    func profile() async throws {
        try await ServerHarness.run(clock: TestClock(Date()), configure: { $0.publicURL = "https://cal.example.com" }) { harness, client in
            let tokens = try await client.signIn("setup@example.com", harness: harness)
            _ = try await client.send(.put, "/api/v1/prayer-settings", json: #"{"city": "Riyadh"}"#, token: tokens.accessToken)
            let created = try await client.send(.post, "/api/v1/setup/caldav", json: #"{"deviceName": "Sara's iPhone"}"#, token: tokens.accessToken)
            #expect(created.status == .created, "\(created.text)")
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let setup = try decoder.decode(Setup.self, from: Data(buffer: created.body))
            #expect(setup.url.hasPrefix("https://cal.example.com/setup/") && setup.url.hasSuffix(".mobileconfig"))
            let path = String(setup.url.dropFirst("https://cal.example.com".count))

            let download = try await client.send(.get, path)
            #expect(download.status == .ok && download.headers[.contentType] == "application/x-apple-aspen-config")
            let data = Data(buffer: download.body)

            // Foundation's reader and Python's plistlib agree on what it says.
            let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
            let payloads = try #require(plist["PayloadContent"] as? [[String: Any]])
            let caldav = try #require(payloads.first { $0["PayloadType"] as? String == "com.apple.caldav.account" })
            #expect(caldav["CalDAVHostName"] as? String == "cal.example.com" && caldav["CalDAVPort"] as? Int == 443)
            #expect(caldav["CalDAVUseSSL"] as? Bool == true && caldav["CalDAVUsername"] as? String == "setup@example.com")
            let password = try #require(caldav["CalDAVPassword"] as? String)
            let principal = try #require(caldav["CalDAVPrincipalURL"] as? String)
            #expect(principal == "https://cal.example.com/dav/principals/\(tokens.account.id.lowercased())/")
            if let python = try Self.readWithPython(data) {
                #expect(python["CalDAVPassword"] == password && python["CalDAVPrincipalURL"] == principal)
                #expect(python["subscriptions"] == "", "the account already shows Prayer Times; no second copy")
            }

            // The password in it works for CalDAV, under the device's name.
            let user = DAVUser(email: "setup@example.com", accountID: try #require(UUID(uuidString: tokens.account.id)), password: password)
            #expect(try await client.propfind(user.principal, as: user, ["d:displayname"]).status.code == 207)
            let names = try await client.send(.get, "/api/v1/app-passwords", token: tokens.accessToken).text
            #expect(names.contains("Sara's iPhone"))
            // A subscription-only profile for the prayer times, with a live feed of its own.
            let subscribe = try await client.send(.post, "/api/v1/setup/prayer-times", token: tokens.accessToken)
            #expect(subscribe.status == .created, "\(subscribe.text)")
            let subscribePath = try decoder.decode(Setup.self, from: Data(buffer: subscribe.body)).url.dropFirst("https://cal.example.com".count)
            let subscriptionProfile = Data(buffer: try await client.send(.get, String(subscribePath)).body)
            let subscriptionPlist = try #require(try PropertyListSerialization.propertyList(from: subscriptionProfile, format: nil) as? [String: Any])
            let subscriptionPayloads = try #require(subscriptionPlist["PayloadContent"] as? [[String: Any]])
            #expect(subscriptionPayloads.count == 1)
            let subscription = try #require(subscriptionPayloads.first { $0["PayloadType"] as? String == "com.apple.subscribedcalendar.account" })
            let feedURL = try #require(subscription["SubCalAccountHostName"] as? String)
            #expect(try await client.send(.get, String(feedURL.dropFirst("https://cal.example.com".count))).text.contains("BEGIN:VCALENDAR"))
            if let python = try Self.readWithPython(subscriptionProfile) {
                #expect(python["subscriptions"] == feedURL && python["CalDAVPassword"] == nil)
            }

            let again = try await client.send(.get, path)
            #expect(again.status == .gone && again.errorCode == "setup_link_spent")
            #expect(try await client.send(.get, "/setup/nonsense.mobileconfig").status == .notFound)

            #expect(try await client.send(.post, "/api/v1/setup/caldav", json: #"{"deviceName": "a\u0007b"}"#, token: tokens.accessToken).status == .badRequest)
            // Links expire after 15 minutes.
            let late = try await client.send(.post, "/api/v1/setup/caldav", token: tokens.accessToken)
            let latePath = try decoder.decode(Setup.self, from: Data(buffer: late.body)).url.dropFirst("https://cal.example.com".count)
            harness.clock.advance(by: 16 * 60)
            #expect(try await client.send(.get, String(latePath)).status == .gone)
            #expect(try await client.send(.post, "/api/v1/setup/caldav").status == .unauthorized)
            let stranger = try await client.signIn("no-prayer@example.com", harness: harness)
            #expect(try await client.send(.post, "/api/v1/setup/prayer-times", token: stranger.accessToken).errorCode == "prayer_settings_not_set")
        }
    }
}
