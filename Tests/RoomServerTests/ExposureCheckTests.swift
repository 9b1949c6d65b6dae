import Foundation
import RoomCore
import RoomkeeperBuild
import RoomProviders
import RoomServer
import RoomTestSupport
import Testing

/// The example tenants' admin keys are published in the README: the server
/// serves them to this machine only, unless told it is a demo.
@Suite struct ExposureCheckTests {
    @Test func theExampleKeysAreRefusedBeyondLoopback() async throws {
        let root = TestDatabase.schemaRoot.deletingLastPathComponent().appendingPathComponent("ops/tenants").path
        let loader = TenantLoader(registry: Build.plugins, providers: StandardProviderCatalog(database: try await TestDatabase.shared(), clock: SystemClock()))
        let examples = try loader.load(directory: root).get().sorted
        let refusal = try #require(ExposureCheck.refusal(host: "0.0.0.0", tenants: examples, demo: false))
        #expect(refusal.contains("acme, demo") && refusal.contains("ROOMKEEPER_DEMO"))
        #expect(ExposureCheck.refusal(host: "192.0.2.10", tenants: examples, demo: false) != nil)
        for loopback in ["127.0.0.1", "localhost", "::1", "127.0.0.2"] {
            #expect(ExposureCheck.refusal(host: loopback, tenants: examples, demo: false) == nil, "\(loopback) reaches this machine only")
        }
        #expect(ExposureCheck.refusal(host: "0.0.0.0", tenants: examples, demo: true) == nil, "a demo the operator asked for")
        let own = try TestTenants(count: 1, pluginTable: "[plugins.test-rooms]\n", database: try await TestDatabase.shared(), clock: ManualClock())
        #expect(ExposureCheck.refusal(host: "0.0.0.0", tenants: [own[0]], demo: false) == nil, "tenants with keys of their own")
    }
}
