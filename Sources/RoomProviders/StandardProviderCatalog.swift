import RoomCore

/// The provider adapters this build has, by the `kind` a tenant file names
/// in `[providers.im]`, `[providers.live]` and `[providers.intercom]`.
public struct StandardProviderCatalog: ProviderCatalog {
    public let database: Database
    public let clock: any RoomClock

    public init(database: Database, clock: any RoomClock) {
        self.database = database
        self.clock = clock
    }

    public var imKinds: [String] { ["local", "netease", "rongcloud"] }
    public var liveKinds: [String] { ["local", "tencent"] }
    public var intercomKinds: [String] { ["red5"] }

    /// Schema folders the adapters need.
    public static let schemaFolders = ["im-local"]

    public func makeIM(kind: String, tenant: TenantID, settings: SettingsReader, timeout: Double) -> MadeIM? {
        switch kind {
        case "local":
            return MadeIM(inRoomDatabase: LocalIMProvider(tenantID: tenant, database: database, clock: clock, limits: LocalIMLimits(settings)))
        case "netease":
            let appKey = settings.string("appKey", default: "")
            let baseURL = url(settings, "baseURL", default: "https://api.yunxinapi.com/nimserver")
            if appKey.isEmpty { settings.report("appKey", "is required for NetEase") }
            guard let secret = settings.secret("appSecret"), !appKey.isEmpty, let baseURL else { return nil }
            return MadeIM(NetEaseIMProvider(.init(appKey: appKey, appSecret: secret, baseURL: baseURL, timeoutSeconds: timeout), clock: clock))
        case "rongcloud":
            let appKey = settings.string("appKey", default: "")
            let baseURL = url(settings, "baseURL", default: "https://api.rong-api.com")
            let backupURL = url(settings, "backupURL", default: "https://api-b.rong-api.com")
            if appKey.isEmpty { settings.report("appKey", "is required for RongCloud") }
            guard let secret = settings.secret("appSecret"), !appKey.isEmpty, let baseURL else { return nil }
            return MadeIM(RongCloudIMProvider(.init(appKey: appKey, appSecret: secret, baseURL: baseURL, backupURL: backupURL, timeoutSeconds: timeout), clock: clock))
        default:
            return nil
        }
    }

    public func makeLive(kind: String, tenant: TenantID, settings: SettingsReader, timeout: Double) -> (any LiveProvider)? {
        switch kind {
        case "local":
            let key = settings.has("keyEnv") ? settings.secret("key") : nil
            return LocalLiveProvider(tenantID: tenant, database: database, host: settings.string("host", default: "127.0.0.1"),
                                     app: settings.string("app", default: "live"), key: key)
        case "tencent":
            let pushDomain = required(settings, "pushDomain"), playDomain = required(settings, "playDomain"), secretID = required(settings, "secretId")
            let pushKey = settings.secret("pushKey"), playKey = settings.secret("playKey")
            let secretKey = settings.secret("secretKey"), callbackKey = settings.secret("callbackKey")
            let app = settings.string("app", default: "live")
            let apiURL = url(settings, "apiURL", default: "https://live.tencentcloudapi.com/")
            guard let pushDomain, let playDomain, let secretID, let pushKey, let playKey, let secretKey, let callbackKey, let apiURL else { return nil }
            return TencentLiveProvider(.init(pushDomain: pushDomain, pushKey: pushKey, playDomain: playDomain, playKey: playKey, app: app,
                                             secretID: secretID, secretKey: secretKey, callbackKey: callbackKey, apiURL: apiURL,
                                             timeoutSeconds: timeout), clock: clock)
        default:
            return nil
        }
    }

    public func makeIntercom(kind: String, tenant: TenantID, settings: SettingsReader) -> (any IntercomProvider)? {
        switch kind {
        case "red5":
            return Red5IntercomProvider(.init(host: settings.string("host", default: "127.0.0.1"),
                                              port: settings.int("port", default: 1935, in: 1...65_535),
                                              app: settings.string("app", default: "live")))
        default:
            return nil
        }
    }

    private func required(_ settings: SettingsReader, _ key: String) -> String? {
        let value = settings.string(key, default: "")
        if value.isEmpty { settings.report(key, "is required") }
        return value.isEmpty ? nil : value
    }

    /// An http(s) URL without a trailing slash problem; reported when malformed.
    private func url(_ settings: SettingsReader, _ key: String, default fallback: String) -> String? {
        let value = settings.string(key, default: fallback)
        guard value.hasPrefix("https://") || value.hasPrefix("http://") else {
            settings.report(key, "must be an http:// or https:// URL")
            return nil
        }
        return value.hasSuffix("/") && key != "apiURL" ? String(value.dropLast()) : value
    }
}
