import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP

/// `/healthz` (the process answers), `/readyz` (the database answers at the right schema),
/// `/metrics` (Prometheus text).
package struct HealthRoutes: Sendable {
    package let store: any Store
    package let clock: Clock

    package init(store: any Store, clock: Clock) {
        self.store = store
        self.clock = clock
    }

    package struct Status: Encodable, Sendable {
        package let status: String
        package let detail: String?
    }

    package func addRoutes(to router: Router<JadwalRequestContext>) {
        router.get("healthz") { _, _ in JSONResponse(Status(status: "ok", detail: nil)) }
        router.get("readyz") { _, context in
            do {
                try await store.checkReady()
                return JSONResponse(Status(status: "ready", detail: nil))
            } catch {
                context.logger.warning("not ready", metadata: ["error": "\(error)"])
                return JSONResponse(Status(status: "unavailable", detail: "\(error)"), status: .serviceUnavailable)
            }
        }
        router.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: try await PrometheusMetrics.exposition(store: store, now: clock.now)))
            )
        }
    }
}
