import Foundation

/// Reads and validates a directory of tenant files. Nothing is half-loaded:
/// either every file is valid and a new `TenantSet` results, or every problem
/// in every file is returned.
public struct TenantLoader: Sendable {
    public let registry: PluginRegistry
    public let providers: any ProviderCatalog
    public let environment: [String: String]

    /// Where webhooks may go (`ROOMKEEPER_WEBHOOK_ALLOW`; the server refuses
    /// to start when it is malformed, so here it is only read).
    var webhookAddresses: WebhookAddressPolicy { (try? WebhookAddressPolicy.from(environment: environment).get()) ?? .strict }

    public init(registry: PluginRegistry, providers: any ProviderCatalog, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.registry = registry
        self.providers = providers
        self.environment = environment
    }

    public func load(directory: String) -> Result<TenantSet, TenantLoadFailure> {
        let url = URL(fileURLWithPath: directory)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else {
            return .failure(TenantLoadFailure(issues: [ConfigIssue(file: directory, field: "", message: "cannot read the tenant directory")]))
        }
        let files = names.filter { $0.hasSuffix(".toml") }.sorted()
        guard !files.isEmpty else {
            return .failure(TenantLoadFailure(issues: [ConfigIssue(file: directory, field: "", message: "no tenant files (*.toml) in this directory")]))
        }
        var tenants: [Tenant] = []
        var issues: [ConfigIssue] = []
        for name in files {
            let path = url.appendingPathComponent(name).path
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                issues.append(ConfigIssue(file: path, field: "", message: "cannot read this file as UTF-8"))
                continue
            }
            let (tenant, fileIssues) = parse(id: String(name.dropLast(".toml".count)), file: path, text: text)
            issues += fileIssues
            if let tenant { tenants.append(tenant) }
        }
        guard issues.isEmpty else { return .failure(TenantLoadFailure(issues: issues)) }
        return .success(TenantSet(tenants))
    }

    /// Parses one tenant file; returns the tenant only when there is no issue.
    public func parse(id: TenantID, file: String, text: String) -> (Tenant?, [ConfigIssue]) {
        guard Self.isValidID(id) else {
            return (nil, [ConfigIssue(file: file, field: "", message: "the file name gives the tenant id: 1-32 characters of a-z, 0-9 and -, starting with a letter or digit")])
        }
        let table: [String: ConfigValue]
        switch TOMLDocument.parse(text) {
        case .success(let parsed): table = parsed
        case .failure(var issue):
            issue.file = file
            return (nil, [issue])
        }
        let root = SettingsReader(file: file, path: "", table: table, environment: environment)
        let name = root.string("name", default: id)
        let keys = adminKeyHashes(root)
        let providers = root.table("providers")
        let im = imProvider(providers, tenant: id)
        let live = liveProvider(providers, tenant: id)
        let intercom = intercomProvider(providers, tenant: id)
        let plugins = enabledPlugins(root.table("plugins"))
        let retention = RetentionPolicy(root.table("retention"))
        let limits = root.table("limits")
        let budgets = RequestBudgets(limits)
        let maxAccounts = limits.has("maxAccounts") ? limits.int("maxAccounts", default: 0, in: 1...1_000_000_000) : nil
        let eventTypes = Set(WebhookEventTypes.core + plugins.values.flatMap(\.plugin.eventTypes))
        let webhooks = WebhookEndpoint.read(root.table("webhooks"), known: eventTypes, addresses: webhookAddresses)
        let issues = root.issues
        guard issues.isEmpty, let im, let live, let intercom else { return (nil, issues) }
        var callbacks: [String: any CallbackVerifier] = [:]
        for verifier in [im.made.provider, live].compactMap({ $0 as? any CallbackVerifier }) { callbacks[verifier.callbackName] = verifier }
        return (Tenant(id: id, name: name, file: file, adminKeyHashes: keys, im: im.im, live: live, intercom: intercom,
                       plugins: plugins, callbacks: callbacks, retention: retention, webhooks: webhooks, budgets: budgets,
                       maxAccounts: maxAccounts, chatroomsInRoomDatabase: im.made.chatroomsInRoomDatabase), [])
    }

    public static func isValidID(_ id: String) -> Bool {
        guard (1...32).contains(id.count), let first = id.first, first != "-" else { return false }
        return id.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    private func adminKeyHashes(_ root: SettingsReader) -> [String] {
        root.stringArray("adminKeys").enumerated().compactMap { index, entry in
            let hex = entry.hasPrefix("sha256:") ? String(entry.dropFirst(7)) : ""
            guard hex.count == 64, hex.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
                root.report("adminKeys[\(index)]", "must be \"sha256:\" and 64 lowercase hex digits (`roomkeeper tenants hash-key` prints one for the key on standard input); keys are never written in clear")
                return nil
            }
            return hex
        }
    }

    private func imProvider(_ providers: SettingsReader, tenant: TenantID) -> (im: TimeLimitedIM, made: MadeIM)? {
        let im = providers.table("im")
        let kind = im.string("kind", default: "local")
        let timeout = Double(im.duration("timeout", default: 5, in: 1...120))
        guard providers.catalogKnows(kind, in: self.providers.imKinds, key: "im.kind"),
              let made = self.providers.makeIM(kind: kind, tenant: tenant, settings: im, timeout: timeout) else { return nil }
        return (TimeLimitedIM(made.provider, seconds: timeout), made)
    }

    private func liveProvider(_ providers: SettingsReader, tenant: TenantID) -> (any LiveProvider)? {
        let live = providers.table("live")
        let kind = live.string("kind", default: "local")
        let timeout = Double(live.duration("timeout", default: 5, in: 1...120))
        guard providers.catalogKnows(kind, in: self.providers.liveKinds, key: "live.kind") else { return nil }
        return self.providers.makeLive(kind: kind, tenant: tenant, settings: live, timeout: timeout)
    }

    private func intercomProvider(_ providers: SettingsReader, tenant: TenantID) -> (any IntercomProvider)? {
        let intercom = providers.table("intercom")
        let kind = intercom.string("kind", default: "red5")
        guard providers.catalogKnows(kind, in: self.providers.intercomKinds, key: "intercom.kind") else { return nil }
        return self.providers.makeIntercom(kind: kind, tenant: tenant, settings: intercom)
    }

    private func enabledPlugins(_ section: SettingsReader) -> [String: EnabledPlugin] {
        var enabled: [String: EnabledPlugin] = [:]
        for id in section.keys {
            let table = section.table(id)
            guard let plugin = registry[id] else {
                section.report(id, "unknown plugin (this build has: \(registry.ids.joined(separator: ", ")))")
                continue
            }
            let policy = plugin.defaultPolicy.reading(table)
            enabled[id] = EnabledPlugin(plugin: plugin.bind(table), policy: policy)
        }
        return enabled
    }
}

extension SettingsReader {
    func catalogKnows(_ kind: String, in kinds: [String], key: String) -> Bool {
        guard kinds.contains(kind) else {
            report(key, "unknown provider \"\(kind)\" (known: \(kinds.joined(separator: ", ")))")
            return false
        }
        return true
    }
}

public struct TenantLoadFailure: Error, Sendable, CustomStringConvertible {
    public let issues: [ConfigIssue]
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}

/// A validated, immutable set of tenants.
public struct TenantSet: Sendable {
    public let byID: [TenantID: Tenant]

    public init(_ tenants: [Tenant]) {
        byID = Dictionary(uniqueKeysWithValues: tenants.map { ($0.id, $0) })
    }

    public subscript(id: TenantID) -> Tenant? { byID[id] }

    public var sorted: [Tenant] { byID.values.sorted { $0.id < $1.id } }
}
