import Synchronization

/// Metric handles made once per key and kept: the metrics factory would
/// otherwise look each up in its registry (a key built from the label and
/// dimensions, under a lock) every time one is counted, about 1 % of the
/// server's CPU samples in figure 1. Keys must come from a bounded set
/// (tenants loaded, route templates, plugins).
///
/// A handle keeps the factory it was made by, and one made before the
/// metrics system is bootstrapped is the no-op one: such handles are made
/// for the one use and not kept (`MetricsBackend`). Kept anyway, the engine's
/// first dissolve in a test process (no server, so no bootstrap) made the
/// in-statement deliveries' counter count nowhere for good.
public final class MadeOnce<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let values = Mutex<[Key: Value]>([:])

    public init() {}

    public func value(for key: Key, make: () -> Value) -> Value {
        if let value = values.withLock({ $0[key] }) { return value }
        let value = make()
        if MetricsBackend.isBootstrapped { values.withLock { $0[key] = value } }
        return value
    }
}

/// Whether the process's metrics backend is bootstrapped; set by whoever
/// bootstraps swift-metrics (the server's `AppMetrics`), once.
public enum MetricsBackend {
    private static let bootstrapped = Atomic<Bool>(false)

    public static var isBootstrapped: Bool { bootstrapped.load(ordering: .acquiring) }

    public static func markBootstrapped() { bootstrapped.store(true, ordering: .releasing) }
}
