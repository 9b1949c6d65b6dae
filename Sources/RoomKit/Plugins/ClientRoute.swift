import Logging

/// A refusal in the plugin's own wire codes (NetEase 804, SealMic 24, …).
public struct ClientError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: Int
    public var message: String

    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code) \(message)" }
}

/// One client endpoint of a plugin, mounted at `/t/{tenant}/{plugin}{path}`.
/// The HTTP methods a client route answers.
public enum ClientMethod: String, Sendable { case get = "GET", post = "POST" }

/// What a client route does to state. The wires read with POST too, so the
/// method cannot say it (#41: an `Idempotency-Key` on a read kept a copy of
/// whatever it answered, and only a change needs one).
public enum ClientRouteEffect: Sendable, Equatable {
    /// Creates, changes or ends something (a login too: it makes a session).
    case changes
    /// Only reads: an `Idempotency-Key` on it is ignored.
    case reads
}

public struct ClientRoute<Settings: Sendable>: Sendable {
    public typealias Method = ClientMethod

    public var path: String
    public var methods: [Method]
    public var effect: ClientRouteEffect
    public var handle: @Sendable (ClientCall<Settings>) async throws -> any Encodable & Sendable

    public init(
        _ path: String, methods: [Method] = [.post], effect: ClientRouteEffect = .changes,
        handle: @escaping @Sendable (ClientCall<Settings>) async throws -> any Encodable & Sendable
    ) {
        self.path = path
        self.methods = methods
        self.effect = effect
        self.handle = handle
    }
}

/// Everything a route handler may use for one request. What it reaches of
/// the engine (`rooms`, `accounts`, `tables`, `secrets`, creating rooms and
/// guests) is bound to the call's tenant and plugin by the engine's `host`.
public struct ClientCall<Settings: Sendable>: Sendable {
    public let tenant: PluginTenant
    /// The plugin whose route this is: what `rooms` and `accounts` are bound to.
    public let pluginID: String
    public let settings: Settings
    public let policy: RoomPolicy
    public let parameters: WireParameters
    /// Header names lowercased.
    public let headers: [String: String]
    /// The client's IP address: the peer's, or the one a trusted proxy
    /// forwarded. What per-address rate limits count by.
    public let clientAddress: String
    public let logger: Logger
    /// The engine's side of this call, bound to its tenant and plugin.
    let host: any PluginCallHost
    /// Where the caller's credential travels and what it is (`caller()`).
    let wire: WireProtocol
    let callerRule: CallerRule
    /// The caller once resolved: a route that asks twice reads once.
    let callerMemo = CallerMemo()

    /// Made by the engine for each request.
    public init(
        tenant: PluginTenant, pluginID: String, settings: Settings, policy: RoomPolicy, parameters: WireParameters,
        headers: [String: String], clientAddress: String, logger: Logger, host: any PluginCallHost,
        wire: WireProtocol, callerRule: CallerRule
    ) {
        self.wire = wire
        self.callerRule = callerRule
        self.tenant = tenant
        self.pluginID = pluginID
        self.settings = settings
        self.policy = policy
        self.parameters = parameters
        self.headers = headers
        self.clientAddress = clientAddress
        self.logger = logger
        self.host = host
    }
}

/// An empty JSON object, for answers with `data: {}`.
public struct EmptyObject: Encodable, Sendable {
    public init() {}
}
