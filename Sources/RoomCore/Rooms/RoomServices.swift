import Logging

/// What the server shares with every plugin call.
public struct RoomServices: Sendable {
    public let database: Database
    public let clock: any RoomClock
    public let engine: RoomEngine
    public let tenants: TenantDirectory
    /// Signs client tokens; the key lives in the database.
    public let tokenKeys: TokenKeyring
    /// Seals secrets kept for showing again (never stored in clear).
    public let secrets: SecretBox

    public init(database: Database, clock: any RoomClock, engine: RoomEngine, tenants: TenantDirectory, tokenKeys: TokenKeyring = TokenKeyring(),
                secrets: SecretBox = SecretBox()) {
        self.tokenKeys = tokenKeys
        self.secrets = secrets
        self.database = database
        self.clock = clock
        self.engine = engine
        self.tenants = tenants
    }
}
