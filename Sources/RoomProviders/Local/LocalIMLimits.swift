import RoomCore

/// What one tenant's local IM allows, from `[providers.im]` of its file.
public struct LocalIMLimits: Sendable, Equatable {
    /// How long an issued IM token opens sockets (`tokenTTL`, default 7 days).
    /// The apps log in again for a new one.
    public var tokenTTLSeconds = 7 * 86_400
    /// Sockets one account may hold at once, over every instance (`maxSocketsPerAccount`).
    public var maxConnectionsPerAccount = 5
    /// Sockets the whole tenant may hold at once, over every instance (`maxSockets`).
    public var maxConnections = 20_000

    public init() {}

    public init(_ settings: SettingsReader) {
        tokenTTLSeconds = settings.duration("tokenTTL", default: tokenTTLSeconds, in: 60...(366 * 86_400))
        maxConnectionsPerAccount = settings.int("maxSocketsPerAccount", default: maxConnectionsPerAccount, in: 1...1_000)
        maxConnections = settings.int("maxSockets", default: maxConnections, in: 1...10_000_000)
    }
}
