import Foundation
import RoomCore
import RoomProviders
import RoomkeeperBuild
import RoomTestSupport
import Testing

@Suite struct SettingsReaderTests {
    @Test(arguments: [
        ("48h", 172_800), ("30m", 1_800), ("20s", 20), ("1h30m", 5_400), ("2d", 172_800), ("90", 90),
    ])
    func durations(text: String, seconds: Int) {
        #expect(SettingsReader.parseDuration(text) == seconds)
    }

    @Test(arguments: ["", "h", "10x", "1.5h", "-3m", "m10"])
    func badDurations(text: String) {
        #expect(SettingsReader.parseDuration(text) == nil)
    }

    @Test func collectsEveryProblemWithItsField() {
        let reader = SettingsReader(file: "a.toml", path: "plugins.x", table: [
            "roomTTL": .string("soon"), "capacity": .int(0), "flag": .string("yes"), "typo": .int(1),
        ])
        _ = reader.duration("roomTTL", default: 10)
        _ = reader.int("capacity", default: 5, in: 1...10)
        _ = reader.bool("flag", default: false)
        let fields = reader.issues.map(\.field)
        #expect(fields.sorted() == ["plugins.x.capacity", "plugins.x.flag", "plugins.x.roomTTL", "plugins.x.typo"])
        #expect(reader.issues.first { $0.field == "plugins.x.typo" }?.message == "unknown setting")
    }

    @Test func secretsComeFromTheEnvironment() {
        let reader = SettingsReader(file: "a.toml", path: "im", table: ["appSecretEnv": .string("MY_SECRET")], environment: ["MY_SECRET": "s3cret"])
        #expect(reader.secret("appSecret") == "s3cret")
        #expect(reader.issues.isEmpty)

        let inline = SettingsReader(file: "a.toml", path: "im", table: ["appSecret": .string("s3cret")])
        #expect(inline.secret("appSecret") == nil)
        #expect(inline.issues.map(\.field) == ["im.appSecret"])

        let unset = SettingsReader(file: "a.toml", path: "im", table: ["appSecretEnv": .string("NOPE")], environment: [:])
        #expect(unset.secret("appSecret") == nil)
        #expect(unset.issues.first?.message == "environment variable NOPE is not set")
    }
}

@Suite struct TenantLoaderTests {
    func loader() async throws -> TenantLoader {
        let database = try await TestDatabase.shared()
        return TenantLoader(registry: TestTenants.registry, providers: StandardProviderCatalog(database: database, clock: SystemClock()))
    }

    @Test func theExampleTenantsAreValid() async throws {
        let root = TestDatabase.schemaRoot.deletingLastPathComponent().appendingPathComponent("ops/tenants").path
        let database = try await TestDatabase.shared()
        let shipped = TenantLoader(registry: Build.plugins, providers: StandardProviderCatalog(database: database, clock: SystemClock()))
        let set = try shipped.load(directory: root).get()
        #expect(set["demo"]?.plugin("audio-chatroom")?.policy.ttlSeconds == 48 * 3_600)
        #expect(set["acme"]?.plugin("audio-chatroom")?.policy.ttlSeconds == 24 * 3_600, "the two tenants differ")
        #expect(set.sorted.map(\.id) == ["acme", "demo"])
        #expect(set["demo"]?.acceptsAdminKey("demo-admin-key") == true)
        #expect(set["demo"]?.acceptsAdminKey("acme-admin-key") == false)
    }

    @Test func aValidTenantWithPluginSettings() async throws {
        let text = TestTenants.file(id: "shop", pluginTable: """
            [plugins.test-rooms]
            roomTTL = "2h"
            capacity = 8
            joinRequiresIM = true
            greeting = "hi"
            """)
        let (tenant, issues) = try await loader().parse(id: "shop", file: "shop.toml", text: text)
        #expect(issues.isEmpty)
        let plugin = try #require(tenant?.plugin("test-rooms"))
        #expect(plugin.policy == RoomPolicy(ttlSeconds: 7_200, capacity: 8, joinRequiresIM: true))
        #expect(plugin.plugin.settingsDescription.contains(#"greeting: "hi""#), "settings are read and bound once")
    }

    @Test func everyErrorIsReportedWithFileAndField() async throws {
        let text = """
            name = 42
            adminKeys = ["plain-text-key"]
            [providers.im]
            kind = "carrier-pigeon"
            [plugins.test-rooms]
            roomTTL = "forever"
            greting = "typo"
            [plugins.no-such-plugin]
            """
        let (tenant, issues) = try await loader().parse(id: "bad", file: "bad.toml", text: text)
        #expect(tenant == nil)
        #expect(issues.allSatisfy { $0.file == "bad.toml" })
        #expect(Set(issues.map(\.field)) == [
            "name", "adminKeys[0]", "providers.im.kind", "plugins.test-rooms.roomTTL", "plugins.test-rooms.greting", "plugins.no-such-plugin",
        ])
    }

    /// #18: webhook endpoints are checked like everything else, and a
    /// malformed secret is reported without its value.
    @Test func webhookEndpointsAreValidated() async throws {
        let good = StandardWebhooks.Secret.generate()
        let bad = "whsec_not-base64-at-all"
        let environment = ["HOOK_SECRETS": good + " " + bad, "GOOD_SECRET": good]
        let database = try await TestDatabase.shared()
        let loader = TenantLoader(registry: TestTenants.registry, providers: StandardProviderCatalog(database: database, clock: SystemClock()),
                                  environment: environment)
        let text = TestTenants.file(id: "hooked", pluginTable: """
            [plugins.test-rooms]
            [webhooks.backend]
            url = "ftp://example.com/x"
            secretEnv = "HOOK_SECRETS"
            events = ["room.created", "room.exploded"]
            [webhooks."Bad Name"]
            url = "https://example.com"
            secretEnv = "GOOD_SECRET"
            """)
        let (tenant, issues) = loader.parse(id: "hooked", file: "hooked.toml", text: text)
        #expect(tenant == nil)
        #expect(Set(issues.map(\.field)) == ["webhooks.backend.url", "webhooks.backend.secretEnv", "webhooks.backend.events[1]", "webhooks.Bad Name"])
        #expect(!issues.contains { $0.message.contains(bad) || $0.message.contains(good) }, "no secret in a message")

        let fine = TestTenants.file(id: "hooked", pluginTable: """
            [plugins.test-rooms]
            [webhooks.backend]
            url = "https://example.com/hook"
            secretEnv = "GOOD_SECRET"
            """)
        let (loaded, none) = loader.parse(id: "hooked", file: "hooked.toml", text: fine)
        #expect(none.isEmpty, "\(none)")
        let endpoint = try #require(loaded?.webhook("backend"))
        #expect(endpoint.wants("member.joined") && endpoint.secrets.count == 1, "every event by default")
    }

    @Test func syntaxErrorsNameTheLine() async throws {
        let (tenant, issues) = try await loader().parse(id: "broken", file: "broken.toml", text: "name = \"x\"\n[plugins\n")
        #expect(tenant == nil)
        #expect(issues.count == 1)
        #expect(issues[0].message.contains("line 2"))
    }

    @Test func badTenantIDs() {
        #expect(TenantLoader.isValidID("demo"))
        #expect(TenantLoader.isValidID("acme-2"))
        #expect(!TenantLoader.isValidID("Demo"))
        #expect(!TenantLoader.isValidID("-x"))
        #expect(!TenantLoader.isValidID(""))
        #expect(!TenantLoader.isValidID(String(repeating: "a", count: 33)))
    }

    @Test func anInvalidReloadKeepsThePreviousTenants() async throws {
        let database = try await TestDatabase.shared()
        let tenants = try TestTenants(database: database, clock: SystemClock())
        let id = tenants.ids[0]
        try "name = [unclosed".write(toFile: "\(tenants.path)/\(id).toml", atomically: true, encoding: .utf8)
        guard case .rejected(let failure) = tenants.directory.reload(logger: .init(label: "test")) else {
            Issue.record("an invalid set must be rejected")
            return
        }
        #expect(failure.issues.first?.file.hasSuffix("\(id).toml") == true)
        #expect(tenants.directory[id] != nil, "the previous good set stays in force")
        #expect(tenants.directory.status.lastError.count == 1)
    }
}

@Suite struct SQLScriptTests {
    @Test func splitsStatementsButNotQuotedSemicolons() {
        let script = """
            -- a comment; not a statement
            CREATE TABLE a (x text DEFAULT 'a;b');
            /* block; comment */ CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;
            INSERT INTO "we;ird" VALUES ('it''s; fine');
            """
        let statements = SQLScript.statements(script)
        #expect(statements.count == 3)
        #expect(statements[0].hasSuffix("DEFAULT 'a;b')"))
        #expect(statements[1].contains("$$ SELECT 1; $$"))
        #expect(statements[2] == #"INSERT INTO "we;ird" VALUES ('it''s; fine')"#)
    }
}

/// The Standard Webhooks signature, checked against the specification's
/// published example (standard-webhooks/standard-webhooks, libraries' tests).
@Suite struct StandardWebhooksTests {
    @Test func signsAsTheSpecificationsExample() throws {
        let secret = try #require(StandardWebhooks.Secret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        let signature = StandardWebhooks.signature(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330,
                                                   body: Array(#"{"test": 2432232314}"#.utf8), secret: secret)
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test func everySecretSignsDuringARotation() throws {
        let secrets = [StandardWebhooks.Secret.generate(), StandardWebhooks.Secret.generate()].compactMap(StandardWebhooks.Secret.init)
        let headers = Dictionary(uniqueKeysWithValues: StandardWebhooks.headers(id: "msg_1", timestamp: 1, body: Array("{}".utf8), secrets: secrets))
        #expect(headers["webhook-signature"]?.split(separator: " ").count == 2)
        #expect(StandardWebhooks.Secret("whsec_c2hvcnQ=") == nil, "too short a secret is refused")
        #expect(StandardWebhooks.Secret("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") == nil, "the prefix is required")
    }
}
