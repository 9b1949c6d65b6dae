import Synchronization

/// Values made once per key and kept: metric handles, which the metrics
/// factory would otherwise look up in its registry (a key built from the
/// label and dimensions, under a lock) every time one is counted, about 1 %
/// of the server's CPU samples in figure 1. Keys must come from a bounded
/// set (tenants loaded, route templates). A metric handle keeps the factory
/// it was made by: make them only once the metrics system is bootstrapped
/// (a request's are: the router bootstraps it), or they count nowhere.
public final class MadeOnce<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let values = Mutex<[Key: Value]>([:])

    public init() {}

    public func value(for key: Key, make: () -> Value) -> Value {
        if let value = values.withLock({ $0[key] }) { return value }
        let value = make()
        values.withLock { $0[key] = value }
        return value
    }
}
