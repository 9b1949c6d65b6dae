import Foundation

/// Transitions per minute over a recent window (the console's chart).
extension RoomStore {
    public struct ActivityBucket: Sendable, Equatable {
        public var minute: Date
        /// Timeline kind (created, joined, left, closed) → how many.
        public var counts: [String: Int]
    }

    public static let charted: [RoomEventKind] = [.created, .joined, .left, .closed]

    /// One bucket per minute of the last `minutes`, oldest first, zeros included.
    public func activity(_ tenantID: TenantID, minutes: Int, now: Date) async throws -> [ActivityBucket] {
        let end = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60)
        let start = end.addingTimeInterval(-Double(minutes - 1) * 60)
        let rows = try await database.query("""
            SELECT (extract(epoch FROM date_trunc('minute', at)))::bigint, kind, count(*)::int FROM room_events
            WHERE tenant_id = \(tenantID) AND at >= \(start) AND kind = ANY(\(Self.charted.map(\.stored)))
            GROUP BY 1, 2
            """)
        var counts: [Int64: [String: Int]] = [:]
        for (minute, kind, count) in try rows.decode((Int64, String, Int).self) { counts[minute, default: [:]][kind] = count }
        return (0..<minutes).map { index in
            let minute = start.addingTimeInterval(Double(index) * 60)
            return ActivityBucket(minute: minute, counts: counts[Int64(minute.timeIntervalSince1970)] ?? [:])
        }
    }
}
