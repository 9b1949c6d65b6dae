import Foundation
import RoomCore
import Synchronization

/// A provider that is down for its first `failures` calls, then delivers to
/// `next` (the tenant's real local IM): an outage and its recovery. It
/// records every entry it delivered, in order.
public final class FlakyDeliverer: OutboxDeliverer {
    private let state: Mutex<(failuresLeft: Int, delivered: [OutboxEntry])>
    private let next: any OutboxDeliverer

    public init(failures: Int, next: any OutboxDeliverer) {
        state = Mutex((failures, []))
        self.next = next
    }

    public var delivered: [OutboxEntry] { state.withLock { $0.delivered } }

    public func deliver(_ entry: OutboxEntry) async throws -> Int? {
        let fail = state.withLock { state -> Bool in
            guard state.failuresLeft > 0 else { return false }
            state.failuresLeft -= 1
            return true
        }
        if fail { throw IMError.unavailable(operation: "test", detail: "provider down") }
        let status = try await next.deliver(entry)
        state.withLock { $0.delivered.append(entry) }
        return status
    }
}
