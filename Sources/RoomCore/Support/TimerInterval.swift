import Metrics

extension Timer {
    /// Records the time since `start` (the engine's, the providers' and the
    /// server's timers all measure with the continuous clock).
    public func recordInterval(since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }
}
