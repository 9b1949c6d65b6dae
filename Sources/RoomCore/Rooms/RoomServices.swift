import Logging

/// What the server shares with every plugin call.
public struct RoomServices: Sendable {
    public let database: Database
    public let clock: any RoomClock
    public let engine: RoomEngine
    public let tenants: TenantDirectory
    public let outboxSignal: OutboxSignal
    /// Signs client tokens; the key lives in the database.
    public let tokenKeys: TokenKeyring

    public init(database: Database, clock: any RoomClock, engine: RoomEngine, tenants: TenantDirectory, outboxSignal: OutboxSignal = OutboxSignal(), tokenKeys: TokenKeyring = TokenKeyring()) {
        self.tokenKeys = tokenKeys
        self.database = database
        self.clock = clock
        self.engine = engine
        self.tenants = tenants
        self.outboxSignal = outboxSignal
    }

    /// After a commit that queued outbox work: deliver it now.
    public func wakeOutbox() {
        outboxSignal.wake()
    }
}
