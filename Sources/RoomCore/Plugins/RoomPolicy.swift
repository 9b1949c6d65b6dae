/// What the engine enforces for every room of a plugin in a tenant. A plugin
/// gives defaults; a tenant file may override them in the plugin's table
/// (`roomTTL`, `capacity`, `joinRequiresIM`, `maxRooms`, `maxRoomsPerOwner`).
public struct RoomPolicy: Sendable, Equatable {
    public var ttlSeconds: Int
    public var capacity: Int
    /// Join-IM-before-server: the account must already be in the room's IM
    /// chatroom (asked of the tenant's IM provider) before it may join.
    public var joinRequiresIM: Bool
    /// Live rooms of the plugin the tenant may have at once; nil: no limit.
    /// Decided under a lock per tenant and plugin, so concurrent creates
    /// cannot pass it.
    public var maxRooms: Int?
    /// Live rooms of the plugin one owner may have at once (so one account
    /// cannot take a tenant's every room); nil: no limit. Decided the same way.
    public var maxRoomsPerOwner: Int?

    public init(ttlSeconds: Int, capacity: Int, joinRequiresIM: Bool = false, maxRooms: Int? = nil, maxRoomsPerOwner: Int? = nil) {
        self.ttlSeconds = ttlSeconds
        self.capacity = capacity
        self.joinRequiresIM = joinRequiresIM
        self.maxRooms = maxRooms
        self.maxRoomsPerOwner = maxRoomsPerOwner
    }

    /// Reads the overridable keys from a plugin's table.
    public func reading(_ reader: SettingsReader) -> RoomPolicy {
        // 0 in a tenant file: no limit.
        let limit = reader.int("maxRooms", default: maxRooms ?? 0, in: 0...1_000_000)
        let perOwner = reader.int("maxRoomsPerOwner", default: maxRoomsPerOwner ?? 0, in: 0...1_000_000)
        return RoomPolicy(
            ttlSeconds: reader.duration("roomTTL", default: ttlSeconds),
            capacity: reader.int("capacity", default: capacity, in: 1...1_000_000),
            joinRequiresIM: reader.bool("joinRequiresIM", default: joinRequiresIM),
            maxRooms: limit == 0 ? nil : limit, maxRoomsPerOwner: perOwner == 0 ? nil : perOwner)
    }
}
