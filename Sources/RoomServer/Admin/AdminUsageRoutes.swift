import Foundation
import Hummingbird
import RoomCore

/// `GET /admin/v1/tenants/{tenant}/usage` (#30, item 3): the tenant's usage
/// by hour or UTC day, as JSON or as CSV (the billing export). The tenant's
/// usage is folded first, so it is current to this instance's last request;
/// other instances' request and text counts join within their fold interval.
extension AdminAPI {
    /// How far back one answer reaches: 31 days of hours, 366 of days.
    static let usageSpans: [UsageReport.Granularity: TimeInterval] = [.hour: 31 * 86_400, .day: 366 * 86_400]

    func registerUsageRoutes(_ tenantGroup: RouterGroup<RoomRequestContext>) {
        tenantGroup.get("usage", use: showUsage)
    }

    @Sendable func showUsage(_ request: Request, context: RoomRequestContext) async throws -> Response {
        let tenant = try context.authorizedTenant(tenants)
        let query = request.uri.queryParameters
        let granularityText = query.get("granularity") ?? "hour"
        guard let granularity = UsageReport.Granularity(rawValue: granularityText) else {
            throw Problem.invalid("granularity", "must be hour or day")
        }
        let format = query.get("format") ?? "json"
        guard ["json", "csv"].contains(format) else { throw Problem.invalid("format", "must be json or csv") }
        let now = services.clock.now()
        let span = Self.usageSpans[granularity] ?? 0
        let to = try Self.time(query.get("to"), field: "to") ?? now
        // A range wider than one answer reaches starts that far before
        // `to` (the answer's `from` says so); one that ends before it
        // starts is empty, as the contract's date-times allow both.
        let asked = try Self.time(query.get("from"), field: "from") ?? to.addingTimeInterval(granularity == .hour ? -86_400 : -30 * 86_400)
        let from = max(asked, to.addingTimeInterval(-span))
        try await UsageRollup(database: services.database, clock: services.clock, tenants: { [] }, logger: context.logger).fold(tenant.id)
        let periods = try await UsageReport(database: services.database).periods(tenant.id, from: from, to: to, granularity: granularity)
        if format == "csv" {
            var headers = HTTPFields()
            headers[.contentType] = "text/csv; charset=utf-8"
            headers[.contentDisposition] = "attachment; filename=\"usage-\(tenant.id)-\(granularity.rawValue).csv\""
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: UsageCSV.text(periods))))
        }
        let page = UsagePageDTO(tenant: tenant.id, granularity: granularity.rawValue, from: from, to: to, items: periods.map(UsagePeriodDTO.init))
        return try page.response(from: request, context: context)
    }
}

/// The billing export: one header row, one row per period, UTC times.
enum UsageCSV {
    static let header = "start,room_minutes,member_minutes,peak_members,rooms_opened,joins,api_requests,im_messages,webhook_deliveries"

    static func text(_ periods: [UsagePeriod]) -> String {
        let formatter = ISO8601DateFormatter()
        var lines = [header]
        for period in periods {
            lines.append([formatter.string(from: period.start), minutes(period.roomSeconds), minutes(period.memberSeconds),
                          String(period.peakMembers), String(period.roomsOpened), String(period.joins), String(period.apiRequests),
                          String(period.imMessages), String(period.webhookDeliveries)].joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// Minutes to two decimals: a billing figure, not a float's noise.
    static func minutes(_ seconds: Double) -> String {
        String(format: "%.2f", seconds / 60)
    }
}

struct UsagePeriodDTO: ResponseEncodable {
    let start: Date
    let roomMinutes: Double
    let memberMinutes: Double
    let peakMembers: Int
    let roomsOpened: Int
    let joins: Int
    let apiRequests: Int64
    let imMessages: Int64
    let webhookDeliveries: Int64

    init(_ period: UsagePeriod) {
        start = period.start
        roomMinutes = (period.roomSeconds / 60 * 100).rounded() / 100
        memberMinutes = (period.memberSeconds / 60 * 100).rounded() / 100
        peakMembers = period.peakMembers
        roomsOpened = period.roomsOpened
        joins = period.joins
        apiRequests = period.apiRequests
        imMessages = period.imMessages
        webhookDeliveries = period.webhookDeliveries
    }
}

struct UsagePageDTO: ResponseEncodable {
    let tenant: String
    let granularity: String
    let from: Date
    let to: Date
    let items: [UsagePeriodDTO]
}
