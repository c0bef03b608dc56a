import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP

/// `/healthz` (the process answers), `/readyz` (the database answers at the right schema),
/// `/metrics` (Prometheus text). Readiness says only yes or no: why not goes to the log, where
/// the operator looks, not to whoever asks. Metrics describe the server's load and are served to
/// a connection from this machine that no proxy forwarded, or to a caller with the metrics token.
package struct HealthRoutes: Sendable {
    package let store: any Store
    package let clock: Clock
    /// The bearer token `/metrics` accepts from anywhere; nil: this machine only.
    package let metricsToken: String?

    package init(store: any Store, clock: Clock, metricsToken: String?) {
        self.store = store
        self.clock = clock
        self.metricsToken = metricsToken
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
                return JSONResponse(Status(status: "unavailable", detail: nil), status: .serviceUnavailable)
            }
        }
        router.get("metrics") { request, context in
            guard mayReadMetrics(request, context) else {
                throw APIError(
                    .forbidden, code: "metrics_forbidden",
                    message: "Metrics are served to this machine, or with Authorization: Bearer and the metrics token (JADWAL_METRICS_TOKEN).")
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: try await PrometheusMetrics.exposition(jobs: JobQueue(store: store, clock: clock))))
            )
        }
    }

    private func mayReadMetrics(_ request: Request, _ context: JadwalRequestContext) -> Bool {
        if let metricsToken, !metricsToken.isEmpty, let header = request.headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer",
               // Digests compared, so the time taken says nothing about the token.
               String(parts[1]).trimmingCharacters(in: .whitespaces).sha256Hex == metricsToken.sha256Hex {
                return true
            }
        }
        // A proxy on this machine connects from loopback too: a forwarded request is not local.
        return IPNetwork.loopback.containsAddress(context.remoteAddress?.ipAddress) && request.headers[ForwardedClientMiddleware.header] == nil
    }
}
