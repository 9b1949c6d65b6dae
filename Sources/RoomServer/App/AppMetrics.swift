import Metrics
import Prometheus
import RoomCore

/// The process's one Prometheus registry, bootstrapped as the swift-metrics
/// backend on first use (bootstrap may happen only once per process).
public enum AppMetrics {
    public static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        MetricsBackend.markBootstrapped()
        return registry
    }()
}
