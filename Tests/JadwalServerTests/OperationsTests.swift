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

@Suite("Health, readiness, metrics, request IDs")
struct OperationsTests {
    @Test("healthz, readyz and metrics", arguments: TestEnvironment.engines)
    func probes(engine: TestEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let health = try await client.send(.get, "/healthz")
            #expect(health.status == .ok && health.text.contains("ok"))
            let ready = try await client.send(.get, "/readyz")
            #expect(ready.status == .ok && ready.text.contains("ready"))
            _ = try await client.send(.get, "/api/v1/me")
            _ = try await client.signIn("metrics@example.com", harness: harness)
            let metrics = try await client.send(.get, "/metrics")
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = metrics.text
            #expect(text.contains("jadwal_jobs{state=\"queued\"}"))
            #expect(text.contains("jadwal_jobs{state=\"done\"}"))
            #expect(text.contains("hb_requests{"))
            #expect(text.contains("http_route=\"/api/v1/auth/email\""))
            #expect(text.contains("http_server_request_duration_bucket{"))
        }
    }

    @Test("readyz says unavailable when the schema is not this binary's")
    func readinessFollowsSchema() async throws {
        try await ServerHarness.run { harness, client in
            try await harness.instance.store.shutdown()
            let ready = try await client.send(.get, "/readyz")
            #expect(ready.status == .serviceUnavailable)
            #expect(try await client.send(.get, "/healthz").status == .ok)
        }
    }

    @Test("request IDs: generated, or the client's own when sane")
    func requestIDs() async throws {
        try await ServerHarness.run { _, client in
            let generated = try await client.send(.get, "/healthz")
            #expect((generated.headers[RequestIDMiddleware.header] ?? "").count >= 16)
            let echoed = try await client.send(.get, "/healthz", headers: [RequestIDMiddleware.header: "abc-123_X"])
            #expect(echoed.headers[RequestIDMiddleware.header] == "abc-123_X")
            let injected = try await client.send(.get, "/healthz", headers: [RequestIDMiddleware.header: "bad id\u{7f}<script>"])
            #expect(injected.headers[RequestIDMiddleware.header] != "bad id\u{7f}<script>")
        }
    }
}
