import Foundation
import RoomCore
import RoomProviders
import RoomTestSupport
import Testing

/// Provider tables in tenant files: every missing or wrong field is reported
/// with its name; secrets only through the environment.
@Suite struct ProviderConfigTests {
    func loader(_ environment: [String: String]) async throws -> TenantLoader {
        let database = try await TestDatabase.shared()
        return TenantLoader(registry: VendorTables.registry, providers: StandardProviderCatalog(database: database, clock: SystemClock()),
                            environment: environment)
    }

    @Test func everyMissingVendorSettingIsNamed() async throws {
        let text = """
            [providers.im]
            kind = "netease"
            appSecret = "written-in-the-file"
            baseURL = "ftp://example.com"

            [providers.live]
            kind = "tencent"
            pushDomain = "push.example.com"
            pushKeyEnv = "UNSET_VARIABLE"

            [providers.intercom]
            kind = "zoom"
            """
        let (tenant, issues) = try await loader([:]).parse(id: "vendor", file: "vendor.toml", text: text)
        #expect(tenant == nil)
        let fields = Set(issues.map(\.field))
        for field in ["providers.im.appKey", "providers.im.appSecret", "providers.im.baseURL", "providers.live.playDomain",
                      "providers.live.secretId", "providers.live.pushKeyEnv", "providers.live.secretKeyEnv", "providers.live.callbackKeyEnv",
                      "providers.intercom.kind"] {
            #expect(fields.contains(field), "\(field) in \(issues.map(\.description))")
        }
        #expect(!issues.map(\.description).joined().contains("written-in-the-file"), "a secret written in the file is never echoed")
    }

    @Test func aCompleteVendorTenantLoads() async throws {
        let text = VendorTables.rongcloud("https://api.rong-api.com", backup: "https://api-b.rong-api.com") + "\n"
            + VendorTables.tencent("https://live.tencentcloudapi.com") + "\n[plugins.sealmic]\n"
        let environment = [VendorSecrets.rongcloud: "s", VendorSecrets.tencentKey: "k", VendorSecrets.tencentSecretKey: "k", VendorSecrets.tencentCallbackKey: "k"]
        let (tenant, issues) = try await loader(environment).parse(id: "vendor", file: "vendor.toml", text: text)
        #expect(issues.isEmpty, "\(issues)")
        #expect(tenant?.im.kind == "rongcloud" && tenant?.live.kind == "tencent" && tenant?.intercom.kind == "red5")
        #expect(Set(tenant?.callbacks.keys.map { $0 } ?? []) == ["rongcloud", "tencent"])
    }
}
