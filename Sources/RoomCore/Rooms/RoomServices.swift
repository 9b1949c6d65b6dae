import Logging

/// What the server shares with every plugin call.
public struct RoomServices: Sendable {
    public let database: Database
    public let clock: any RoomClock
    public let engine: RoomEngine
    public let tenants: TenantDirectory

    public init(database: Database, clock: any RoomClock, engine: RoomEngine, tenants: TenantDirectory) {
        self.database = database
        self.clock = clock
        self.engine = engine
        self.tenants = tenants
    }
}
