/// What the engine enforces for every room of a plugin in a tenant. A plugin
/// gives defaults; a tenant file may override them in the plugin's table
/// (`roomTTL`, `capacity`, `joinRequiresIM`, `maxRooms`, `maxRoomsPerOwner`,
/// `accountsPerAddress`, `roomsPerAddress`).
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
    /// New accounts (guests, registrations) one client address may create
    /// through the plugin's routes; nil: no limit.
    public var accountsPerAddress: RateLimit?
    /// Rooms one client address may create through the plugin's routes; nil: no limit.
    public var roomsPerAddress: RateLimit?

    /// By default an address may create 100 accounts a day (the seed
    /// live-quiz's tourist limit) and 30 rooms a minute.
    public init(ttlSeconds: Int, capacity: Int, joinRequiresIM: Bool = false, maxRooms: Int? = nil, maxRoomsPerOwner: Int? = nil,
                accountsPerAddress: RateLimit? = RateLimit(100, per: 86_400), roomsPerAddress: RateLimit? = RateLimit(30, per: 60)) {
        self.ttlSeconds = ttlSeconds
        self.capacity = capacity
        self.joinRequiresIM = joinRequiresIM
        self.maxRooms = maxRooms
        self.maxRoomsPerOwner = maxRoomsPerOwner
        self.accountsPerAddress = accountsPerAddress
        self.roomsPerAddress = roomsPerAddress
    }

    /// Does a create count the open rooms first (under a lock, in a transaction)?
    public var limitsRooms: Bool { maxRooms != nil || maxRoomsPerOwner != nil }

    /// Reads the overridable keys from a plugin's table.
    public func reading(_ reader: SettingsReader) -> RoomPolicy {
        // 0 in a tenant file: no limit.
        let limit = reader.int("maxRooms", default: maxRooms ?? 0, in: 0...1_000_000)
        let perOwner = reader.int("maxRoomsPerOwner", default: maxRoomsPerOwner ?? 0, in: 0...1_000_000)
        return RoomPolicy(
            ttlSeconds: reader.duration("roomTTL", default: ttlSeconds),
            capacity: reader.int("capacity", default: capacity, in: 1...1_000_000),
            joinRequiresIM: reader.bool("joinRequiresIM", default: joinRequiresIM),
            maxRooms: limit == 0 ? nil : limit, maxRoomsPerOwner: perOwner == 0 ? nil : perOwner,
            accountsPerAddress: Self.rate(reader, "accountsPerAddress", default: accountsPerAddress),
            roomsPerAddress: Self.rate(reader, "roomsPerAddress", default: roomsPerAddress))
    }

    private static func rate(_ reader: SettingsReader, _ key: String, default fallback: RateLimit?) -> RateLimit? {
        guard reader.has(key) else { return fallback }
        let text = reader.string(key, default: "")
        do {
            return try RateLimit.parse(text)
        } catch {
            reader.report(key, "must be \"count/duration\" such as \"100/1d\" or \"1/3s\", or \"0\" for no limit")
            return fallback
        }
    }
}
