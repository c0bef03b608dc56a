import CoreMetrics
import Foundation
import JadwalCore
import Metrics
import Prometheus
import Synchronization

/// The process-wide Prometheus registry. swift-metrics has one global backend, so it is
/// bootstrapped once per process however many applications (tests) are built.
package enum PrometheusMetrics {
    package static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Hummingbird names metrics the OpenTelemetry way ("http.server.request.duration");
        // Prometheus allows only [a-zA-Z0-9_:].
        factory.nameAndLabelSanitizer = { name, labels in
            (sanitize(name), labels.map { (sanitize($0.0), $0.1) })
        }
        MetricsSystem.bootstrap(factory)
        return registry
    }()

    package static func sanitize(_ name: String) -> String {
        String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") ? $0 : "_" })
    }

    /// The text for `/metrics`, with the job queue depth read fresh from storage.
    package static func exposition(jobs: JobQueue) async throws -> String {
        let (counts, due) = try await jobs.depth()
        for state in JobState.allCases {
            Gauge(label: "jadwal_jobs", dimensions: [("state", state.rawValue)]).record(counts[state] ?? 0)
        }
        // Queued jobs include reminders due next month; the backlog is what is due now.
        Gauge(label: "jadwal_jobs_due").record(due)
        return registry.emitToString()
    }
}
