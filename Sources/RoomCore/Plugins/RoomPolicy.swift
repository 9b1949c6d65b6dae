/// What the engine enforces for every room of a plugin in a tenant. A plugin
/// gives defaults; a tenant file may override them in the plugin's table
/// (`roomTTL`, `capacity`, `joinRequiresIM`).
public struct RoomPolicy: Sendable, Equatable {
    public var ttlSeconds: Int
    public var capacity: Int
    /// Join-IM-before-server: the account must already be in the room's IM
    /// chatroom (asked of the tenant's IM provider) before it may join.
    public var joinRequiresIM: Bool

    public init(ttlSeconds: Int, capacity: Int, joinRequiresIM: Bool = false) {
        self.ttlSeconds = ttlSeconds
        self.capacity = capacity
        self.joinRequiresIM = joinRequiresIM
    }

    /// Reads the overridable keys from a plugin's table.
    public func reading(_ reader: SettingsReader) -> RoomPolicy {
        RoomPolicy(
            ttlSeconds: reader.duration("roomTTL", default: ttlSeconds),
            capacity: reader.int("capacity", default: capacity, in: 1...1_000_000),
            joinRequiresIM: reader.bool("joinRequiresIM", default: joinRequiresIM))
    }
}
