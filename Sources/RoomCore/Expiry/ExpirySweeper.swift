import Foundation
import Logging
import ServiceLifecycle

/// Closes rooms past their TTL and handles lapsed reservations, in batches.
/// Deadlines live in the rows, so a restart loses nothing, and any number
/// of instances can sweep one database at once (`FOR UPDATE SKIP LOCKED`).
public struct ExpirySweeper: Service {
    public struct Configuration: Sendable {
        public var interval: Duration = .seconds(1)
        public var batchSize = 1000
        /// Tenants this sweeper serves; nil serves all.
        public var tenants: [TenantID]?

        public init() {}
    }

    public let engine: RoomEngine
    public let configuration: Configuration
    public let logger: Logger

    public init(engine: RoomEngine, configuration: Configuration = .init(), logger: Logger) {
        self.engine = engine
        self.configuration = configuration
        self.logger = logger
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await sweepOnce()
            } catch {
                logger.error("expiry sweep failed", metadata: ["error": "\(LoggableError.describe(error))"])
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: configuration.interval) }
        }
    }

    /// Sweeps until nothing is due; returns how many rooms it handled. Run
    /// in a cell's work (`LeaseOwner.cell`, as the server runs it), that
    /// cell's rooms; called outside one on a database of several cells,
    /// every cell's, one after another (#43: it swept the first cell only,
    /// and a second cell's expired room stayed open: the conformance suite
    /// with its tenant in a second cell failed `expiresAfterTTL`).
    @discardableResult
    public func sweepOnce() async throws -> Int {
        try await engine.database.inItsCellOrEach { try await sweepCell() }
    }

    private func sweepCell() async throws -> Int {
        var total = 0
        while true {
            let expired = try await engine.expireDue(limit: configuration.batchSize, tenants: configuration.tenants)
            let lapsed = try await engine.lapseDue(limit: configuration.batchSize, tenants: configuration.tenants)
            // Room bans that ended let the account back into the vendor's chatroom (#29).
            let readmitted = try await engine.readmitDue(limit: configuration.batchSize, tenants: configuration.tenants)
            total += expired + lapsed
            if expired < configuration.batchSize && lapsed < configuration.batchSize && readmitted < configuration.batchSize { break }
            if Task.isShuttingDownGracefully || Task.isCancelled { break }
        }
        if total > 0 { logger.debug("swept rooms", metadata: ["count": "\(total)"]) }
        return total
    }
}
