import Synchronization

/// Wakes this instance's outbox dispatcher when work was queued anywhere:
/// rung by `OutboxWakeFollower` on each `roomkeeper_outbox` notification
/// (every instance's commits), so side effects leave at once instead of at
/// the next poll.
public final class OutboxSignal: Sendable {
    private let state = Mutex<(pending: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    public init() {}

    public func wake() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when woken, or after `timeout`.
    func wait(timeout: Duration) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.pending {
                    state.pending = false
                    return true
                }
                state.waiter = continuation
                return false
            }
            if now {
                continuation.resume()
            } else {
                Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    self?.wake()
                }
            }
        }
    }
}
