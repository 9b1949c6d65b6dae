import Foundation

/// Performs one outbox entry's side effect.
public protocol OutboxDeliverer: Sendable {
    /// Returns the receiver's HTTP status for a webhook, nil for other kinds.
    @discardableResult
    func deliver(_ entry: OutboxEntry) async throws -> Int?
}

/// A webhook receiver answered, but not with a 2xx: retried like no answer
/// (a receiver being deployed answers 502 for a minute), and its status is
/// kept with the attempt.
public struct ReceiverRefused: Error, Sendable, CustomStringConvertible {
    public let statusCode: Int
    public var description: String { "the receiver answered HTTP \(statusCode)" }

    public init(statusCode: Int) {
        self.statusCode = statusCode
    }
}

/// Why a webhook attempt got no answer, as the tenant sees it: a class,
/// never the transport's own text, which named addresses and ports of our
/// network to whoever reads the attempts (#27).
public struct WebhookAttemptFailed: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case addressRefused = "the receiver's address is not allowed (loopback, private, link-local or reserved)"
        case unresolved = "the receiver's host name did not resolve"
        case connect = "could not connect to the receiver"
        case tls = "the TLS handshake with the receiver failed"
        case timeout = "the receiver did not answer in time"
        case other = "the delivery failed before the receiver answered"
    }

    public let kind: Kind
    public var description: String { kind.rawValue }

    public init(_ kind: Kind) {
        self.kind = kind
    }
}

/// Sends one webhook POST; implemented over HTTP in RoomProviders.
public protocol WebhookSender: Sendable {
    /// Returns the receiver's HTTP status, whatever it is; throws when there
    /// was no answer (refused, reset, timed out).
    func post(url: String, headers: [(String, String)], body: [UInt8], timeoutSeconds: Int) async throws -> Int
}

/// For tools without an HTTP client: every webhook waits for a real sender.
public struct NoWebhookSender: WebhookSender {
    public init() {}

    public func post(url: String, headers: [(String, String)], body: [UInt8], timeoutSeconds: Int) async throws -> Int {
        throw IMError.unavailable(operation: "webhook", detail: "this process sends no webhooks")
    }
}

/// A failure that retrying cannot fix (unknown kind, a payload we cannot
/// read, a provider that refused): the entry goes straight to dead.
public struct PermanentDeliveryError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Delivers the entry kinds RoomCore defines through the tenant's providers.
public struct ProviderOutboxDeliverer: OutboxDeliverer {
    public let tenants: @Sendable (TenantID) -> Tenant?
    public let webhooks: any WebhookSender
    public let now: @Sendable () -> Date
    /// Where every tenant's `outbox.dead` also goes (`ROOMKEEPER_OPERATOR_WEBHOOK_URL`).
    public let operatorEndpoint: WebhookEndpoint?

    public init(tenants: @escaping @Sendable (TenantID) -> Tenant?, webhooks: any WebhookSender = NoWebhookSender(),
                operatorEndpoint: WebhookEndpoint? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.tenants = tenants
        self.webhooks = webhooks
        self.operatorEndpoint = operatorEndpoint
        self.now = now
    }

    public func deliver(_ entry: OutboxEntry) async throws -> Int? {
        // A tenant missing from the configuration may come back with a reload: retry.
        func tenant() throws -> Tenant {
            guard let tenant = tenants(entry.tenantID) else {
                throw IMError.unavailable(operation: "outbox", detail: "tenant \(entry.tenantID) is not configured")
            }
            return tenant
        }
        guard let effect = entry.effect else { throw PermanentDeliveryError("unreadable \(entry.kind) entry") }
        switch effect {
        case .im(let effect):
            do {
                let im = try tenant().im
                try await OutboxDelivery.$idempotencyKey.withValue(entry.idempotencyKey) {
                    try await effect.perform(on: im, idempotencyKey: entry.idempotencyKey)
                }
            } catch let error as IMError where !error.isTransient {
                throw PermanentDeliveryError(error.description)
            }
        case .live(let effect):
            do {
                try await effect.perform(on: try tenant().live)
            } catch let error as MediaError {
                if case .rejected = error { throw PermanentDeliveryError(error.description) }
                throw error
            }
        case .webhook(let delivery):
            return try await post(delivery, tenant: try tenant())
        case .event:
            throw PermanentDeliveryError("a room event is recorded when written, never delivered as such")
        }
        return nil
    }

    /// Signs at the moment of sending (`webhook-timestamp` is the attempt's
    /// time, so a receiver can refuse stale replays) with every secret the
    /// endpoint has now: a rotation applies to retries of older events too.
    private func post(_ delivery: WebhookDelivery, tenant: Tenant) async throws -> Int {
        let configured = delivery.endpoint == WebhookEndpoint.operatorName ? operatorEndpoint : tenant.webhook(delivery.endpoint)
        guard let endpoint = configured else {
            throw PermanentDeliveryError("webhook endpoint \(delivery.endpoint) is no longer configured for tenant \(tenant.id)")
        }
        let body = Array(delivery.body.utf8)
        // The delivery's trace goes on as `traceparent`: AsyncHTTPClient adds
        // it, and a client span, from the delivery's span when tracing is on (#30).
        let headers = [("content-type", "application/json"), ("user-agent", "Roomkeeper-Webhooks/1")]
            + StandardWebhooks.headers(id: delivery.id, timestamp: Int(now().timeIntervalSince1970), body: body, secrets: endpoint.secrets)
        let status: Int
        do {
            status = try await webhooks.post(url: endpoint.url, headers: headers, body: body, timeoutSeconds: endpoint.timeoutSeconds)
        } catch let failure as WebhookAttemptFailed {
            throw failure
        } catch {
            throw WebhookAttemptFailed(.other)  // the attempt is shown to the tenant: its class only
        }
        guard (200..<300).contains(status) else { throw ReceiverRefused(statusCode: status) }
        // The tenant's usage counts its endpoints' deliveries, not the operator's copy.
        if delivery.endpoint != WebhookEndpoint.operatorName { UsageCounters.shared.record(.webhookDelivery, tenant: tenant.id, at: now()) }
        return status
    }
}
