import Foundation
import Hummingbird
import JadwalCore

/// `/healthz` (the process answers), `/readyz` (the database answers at the right schema),
/// `/metrics` (Prometheus text).
struct HealthRoutes: Sendable {
    let store: any Store
    let clock: Clock

    struct Status: Encodable, Sendable {
        let status: String
        let detail: String?
    }

    func addRoutes(to router: Router<JadwalRequestContext>) {
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
