import Foundation

/// What `roomkeeper load-test` does, bounded (#44): a load test must stop
/// by itself, whatever it is asked, and must not be a way to flood a
/// deployment by accident.
public struct LoadTestPlan: Sendable, Equatable {
    /// The deployment's base URL (loopback by default).
    public var url: String
    public var tenant: String
    public var plugin: String
    public var rooms: Int
    /// Members per room, besides its host.
    public var members: Int
    /// Chatroom messages a second, over all rooms.
    public var messagesPerSecond: Int
    /// How long messages are sent.
    public var seconds: Int
    /// A run tags its accounts and rooms with it.
    public var runID: String

    /// Plugins the load test knows the wire of: SealMic's rooms have an IM
    /// chatroom each, entered before `/room/join` (the seed's order).
    public static let plugins = ["sealmic"]
    /// 100 rooms and 5,000 members at most, 10 minutes of messages at most,
    /// 1,000 messages a second at most: past that it is not a test of a
    /// deployment but load on it.
    public static let limits = (rooms: 1...100, members: 1...1_000, people: 5_000, rate: 1...1_000, seconds: 1...600)

    public struct Refused: Error, CustomStringConvertible {
        public let field: String
        public let reason: String
        public var description: String { "--\(field) \(reason)" }
    }

    public init(url: String = "http://127.0.0.1:8080", tenant: String = "demo", plugin: String = "sealmic", rooms: Int = 4, members: Int = 25,
                messagesPerSecond: Int = 20, seconds: Int = 10, runID: String = String(UInt32.random(in: 0...UInt32.max), radix: 36)) {
        self.url = url
        self.tenant = tenant
        self.plugin = plugin
        self.rooms = rooms
        self.members = members
        self.messagesPerSecond = messagesPerSecond
        self.seconds = seconds
        self.runID = runID
    }

    /// The plan, or the first option out of bounds.
    public func checked() throws -> LoadTestPlan {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil,
              parsed.query == nil, parsed.user == nil else {
            throw Refused(field: "url", reason: "must be http(s)://host[:port][/path], without credentials or a query")
        }
        guard tenant.range(of: "^[a-z0-9][a-z0-9-]{0,62}$", options: .regularExpression) != nil else {
            throw Refused(field: "tenant", reason: "must be a tenant id (a-z, 0-9, -)")
        }
        guard Self.plugins.contains(plugin) else {
            throw Refused(field: "plugin", reason: "must be one of \(Self.plugins.joined(separator: ", ")) (the wires this load test speaks)")
        }
        guard Self.limits.rooms.contains(rooms) else { throw Refused(field: "rooms", reason: "must be 1-100") }
        guard Self.limits.members.contains(members) else { throw Refused(field: "members", reason: "must be 1-1000") }
        guard rooms * (members + 1) <= Self.limits.people else { throw Refused(field: "members", reason: "times --rooms must leave 5000 accounts at most") }
        guard Self.limits.rate.contains(messagesPerSecond) else { throw Refused(field: "rate", reason: "must be 1-1000 messages a second") }
        guard Self.limits.seconds.contains(seconds) else { throw Refused(field: "seconds", reason: "must be 1-600") }
        return self
    }

    /// `ws(s)://…/t/{tenant}/im/ws` for the plan's URL.
    var imSocketURL: String {
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        return base.replacingOccurrences(of: "^http", with: "ws", options: .regularExpression) + "/t/\(tenant)/im/ws"
    }

    var pluginBase: String {
        (url.hasSuffix("/") ? String(url.dropLast()) : url) + "/t/\(tenant)/\(plugin)"
    }
}
