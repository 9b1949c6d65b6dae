/// A tenant (an app) as loaded from `ops/tenants/<id>.toml`.
public struct Tenant: Sendable {
    public let id: TenantID
    public let name: String
    /// The file it came from, for messages.
    public let file: String
    /// Lowercase hex SHA-256 digests of the tenant's admin API keys.
    public let adminKeyHashes: [String]
    public let im: any IMProvider
    /// The IM when its adapter declared its chatrooms rows of this database
    /// (`MadeIM`): the room's own statements then write its chatroom effects.
    public let chatroomsInRoomDatabase: (any ChatroomsInRoomDatabase)?
    public let live: any LiveProvider
    public let intercom: any IntercomProvider
    public let plugins: [String: EnabledPlugin]
    /// The tenant's adapters that verify vendor callbacks, by path segment.
    public let callbacks: [String: any CallbackVerifier]
    /// How long what no longer serves anyone is kept (`[retention]`).
    public let retention: RetentionPolicy
    /// Where the tenant's back end hears about its rooms (`[webhooks.<name>]`).
    public let webhooks: [WebhookEndpoint]
    /// Requests a second and bursts (`[limits]`, #41).
    public let budgets: RequestBudgets
    /// Accounts the tenant may hold at most (`[limits] maxAccounts`, #41);
    /// nil: no quota.
    public let maxAccounts: Int?

    public init(
        id: TenantID, name: String, file: String, adminKeyHashes: [String], im: any IMProvider,
        live: any LiveProvider, intercom: any IntercomProvider, plugins: [String: EnabledPlugin], callbacks: [String: any CallbackVerifier] = [:],
        retention: RetentionPolicy = .init(), webhooks: [WebhookEndpoint] = [], budgets: RequestBudgets = .init(),
        maxAccounts: Int? = nil, chatroomsInRoomDatabase: (any ChatroomsInRoomDatabase)? = nil
    ) {
        self.chatroomsInRoomDatabase = chatroomsInRoomDatabase
        self.maxAccounts = maxAccounts
        self.budgets = budgets
        self.webhooks = webhooks
        self.retention = retention
        self.id = id
        self.name = name
        self.file = file
        self.adminKeyHashes = adminKeyHashes
        self.im = im
        self.live = live
        self.intercom = intercom
        self.plugins = plugins
        self.callbacks = callbacks
    }

    public func plugin(_ id: String) -> EnabledPlugin? { plugins[id] }

    public func webhook(_ name: String) -> WebhookEndpoint? { webhooks.first { $0.name == name } }

    /// The tenant's IM adapter as its concrete type, under the time limit
    /// every call goes through (the local IM's own endpoint needs it).
    public func imAdapter<Adapter: IMProvider>(_ type: Adapter.Type) -> Adapter? {
        if let limited = im as? TimeLimitedIM { return limited.base as? Adapter }
        return im as? Adapter
    }

    /// Does `key` (as sent) match one of this tenant's admin keys?
    public func acceptsAdminKey(_ key: String) -> Bool {
        let digest = Secrets.sha256Hex(key)
        return adminKeyHashes.contains { Secrets.equal($0, digest) }
    }
}

/// A plugin as one tenant enabled it: bound to that tenant's settings.
public struct EnabledPlugin: Sendable {
    public let plugin: BoundPlugin
    public let policy: RoomPolicy

    public init(plugin: BoundPlugin, policy: RoomPolicy) {
        self.plugin = plugin
        self.policy = policy
    }
}

/// Builds the provider adapters a tenant names. Implemented in RoomProviders;
/// RoomCore only knows the protocol.
public protocol ProviderCatalog: Sendable {
    var imKinds: [String] { get }
    var liveKinds: [String] { get }
    var intercomKinds: [String] { get }
    /// Each reads the adapter's settings (reporting problems on `settings`)
    /// and builds it; nil when the settings are unusable. `timeout` bounds
    /// every call, in seconds.
    func makeIM(kind: String, tenant: TenantID, settings: SettingsReader, timeout: Double) -> MadeIM?
    func makeLive(kind: String, tenant: TenantID, settings: SettingsReader, timeout: Double) -> (any LiveProvider)?
    func makeIntercom(kind: String, tenant: TenantID, settings: SettingsReader) -> (any IntercomProvider)?
}

/// An IM adapter and what it declares it can do (#42: the engine used to
/// find out by downcasting the tenant's IM through its wrappers).
public struct MadeIM: Sendable {
    public let provider: any IMProvider
    /// Set when the adapter's chatrooms are rows of the server's database.
    public let chatroomsInRoomDatabase: (any ChatroomsInRoomDatabase)?

    /// A vendor's adapter: its calls leave the database.
    public init(_ provider: any IMProvider) {
        self.provider = provider
        chatroomsInRoomDatabase = nil
    }

    /// An adapter whose chatrooms are rows of the server's database.
    public init(inRoomDatabase provider: any ChatroomsInRoomDatabase) {
        self.provider = provider
        chatroomsInRoomDatabase = provider
    }
}
