import Foundation
import Synchronization

/// The one source of "now" for the engine. SQL receives the timestamp from
/// here, so tests move time forward instead of sleeping.
public protocol RoomClock: Sendable {
    func now() -> Date
}

public struct SystemClock: RoomClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that only moves when told to (tests, and `roomkeeper` commands
/// that replay a moment).
public final class ManualClock: RoomClock {
    private let current: Mutex<Date>

    public init(_ start: Date = Date()) {
        current = Mutex(start)
    }

    public func now() -> Date { current.withLock { $0 } }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

extension Date {
    /// Epoch milliseconds, as every shipped app reads times.
    public var epochMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }
}
