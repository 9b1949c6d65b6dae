import Foundation
import PostgresNIO

/// One period of a tenant's usage (an hour or a UTC day).
public struct UsagePeriod: Sendable, Equatable {
    public var start: Date
    public var roomSeconds: Double
    public var memberSeconds: Double
    public var peakMembers: Int
    public var roomsOpened: Int
    public var joins: Int
    public var apiRequests: Int64
    public var imMessages: Int64
    public var webhookDeliveries: Int64
}

/// Reads `usage_hourly` by hour or by UTC day (#30, item 3): the periods in
/// `[from, to)` that have any usage, oldest first.
public struct UsageReport: Sendable {
    public enum Granularity: String, Sendable, CaseIterable {
        case hour, day
    }

    public let database: Database

    public init(database: Database) {
        self.database = database
    }

    public func periods(_ tenantID: TenantID, from: Date, to: Date, granularity: Granularity) async throws -> [UsagePeriod] {
        guard from < to else { return [] }
        let rows = try await database.query("""
            SELECT extract(epoch FROM date_trunc(\(granularity.rawValue), hour, 'UTC'))::float8 AS start,
                   sum(room_seconds)::float8, sum(member_seconds)::float8, max(peak_members)::int, sum(rooms_opened)::int,
                   sum(joins)::int, sum(api_requests)::bigint, sum(im_messages)::bigint, sum(webhook_deliveries)::bigint
            FROM usage_hourly
            WHERE tenant_id = \(tenantID) AND hour >= date_trunc(\(granularity.rawValue), \(from), 'UTC') AND hour < \(to)
            GROUP BY 1 ORDER BY 1
            """)
        return try rows.decode((Double, Double, Double, Int, Int, Int, Int64, Int64, Int64).self).map {
            UsagePeriod(start: Date(timeIntervalSince1970: $0), roomSeconds: $1, memberSeconds: $2, peakMembers: $3, roomsOpened: $4,
                        joins: $5, apiRequests: $6, imMessages: $7, webhookDeliveries: $8)
        }
    }
}
