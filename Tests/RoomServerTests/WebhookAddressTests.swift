import Foundation
import RoomCore
import RoomProviders
import RoomTestSupport
import Testing

/// Webhooks go to public receivers only, unless the operator allow-lists a
/// host, address or network (#27): refused at load by a literal address or
/// a local name, and before every attempt by what the name resolves to;
/// a tenant reads an attempt's failure as a class, never the transport's text.
@Suite struct WebhookAddressTests {
    @Test func privateLoopbackLinkLocalAndReservedAddressesAreRefused() throws {
        let strict = WebhookAddressPolicy.strict
        for host in ["127.0.0.1", "127.8.8.8", "10.1.2.3", "169.254.169.254", "172.16.0.1", "172.31.255.255", "192.168.1.1", "100.64.0.1",
                     "0.0.0.0", "224.0.0.1", "[::1]", "[::]", "[fd00::1]", "[fe80::1]", "[::ffff:127.0.0.1]", "[::ffff:169.254.169.254]",
                     "[64:ff9b::10.0.0.1]",
                     // #41: IPv4-compatible, local-use NAT64, site-local, and 6to4 wrapping a private address.
                     "[::8.8.8.8]", "[::127.0.0.1]", "[64:ff9b:1::1]", "[fec0::1]", "[2002:7f00:1::1]", "[2002:a00:1::5]", "localhost", "LOCALHOST.", "db.localhost", "metadata.google.internal", "printer.local"] {
            #expect(strict.refusal(host: host) != nil, "\(host) is refused")
        }
        for host in ["93.184.216.34", "172.32.0.1", "8.8.8.8", "[2606:4700::1111]", "[::ffff:8.8.8.8]", "[2002:808:808::1]", "example.com", "hooks.example.org"] {
            #expect(strict.refusal(host: host) == nil, "\(host) is allowed")
        }
        let allowing = try WebhookAddressPolicy.parse("127.0.0.1, 10.1.0.0/16, hooks.internal, fd00::/8").get()
        #expect(allowing.refusal(host: "127.0.0.1") == nil && allowing.refusal(host: "10.1.200.3") == nil)
        #expect(allowing.refusal(host: "hooks.internal") == nil && allowing.refusal(host: "[fd00::5]") == nil)
        #expect(allowing.refusal(host: "10.2.0.1") != nil && allowing.refusal(host: "127.0.0.2") != nil && allowing.refusal(host: "169.254.169.254") != nil)
        #expect(allowing.refusal(host: "other.internal") != nil)
        // A name that resolved to a private address is refused unless the name itself is allowed.
        let loopback = try #require(IPAddress("127.0.0.1"))
        #expect(WebhookAddressPolicy.strict.refusal(host: "rebinding.example.com", addresses: [try #require(IPAddress("93.184.216.34")), loopback]) != nil)
        #expect(allowing.refusal(host: "hooks.internal", addresses: [try #require(IPAddress("10.9.9.9"))]) == nil)
        #expect(throws: Never.self) { try WebhookAddressPolicy.parse("").get() }
        #expect((try? WebhookAddressPolicy.parse("10.0.0.0/99").get()) == nil && (try? WebhookAddressPolicy.parse("a b").get()) == nil)
    }

    @Test func aTenantFileNamingAPrivateReceiverIsRefusedUnlessTheOperatorAllowsIt() async throws {
        let database = try await TestDatabase.shared()
        let text = TestTenants.file(id: "hooked", pluginTable: """
            [plugins.test-rooms]
            [webhooks.metadata]
            url = "http://169.254.169.254/latest/meta-data"
            secretEnv = "HOOK_SECRET"
            [webhooks.local]
            url = "http://localhost:9000/hook"
            secretEnv = "HOOK_SECRET"
            """)
        let secret = ["HOOK_SECRET": StandardWebhooks.Secret.generate()]
        let strict = TenantLoader(registry: TestTenants.registry, providers: StandardProviderCatalog(database: database, clock: SystemClock()), environment: secret)
        let (refused, issues) = strict.parse(id: "hooked", file: "hooked.toml", text: text)
        #expect(refused == nil)
        #expect(Set(issues.map(\.field)) == ["webhooks.metadata.url", "webhooks.local.url"], "\(issues)")
        #expect(issues.allSatisfy { $0.message.contains(WebhookAddressPolicy.environmentName) }, "the message says how an operator allows it")
        let allowing = TenantLoader(registry: TestTenants.registry, providers: StandardProviderCatalog(database: database, clock: SystemClock()),
                                    environment: secret.merging([WebhookAddressPolicy.environmentName: "169.254.169.254,localhost"]) { a, _ in a })
        let (tenant, none) = allowing.parse(id: "hooked", file: "hooked.toml", text: text)
        #expect(tenant != nil && none.isEmpty, "\(none)")
    }

    @Test func everyAttemptChecksWhatTheNameResolvesToAndTellsAClassOnly() async throws {
        let receiver = WebhookReceiver()
        try await receiver.run { port in
            // `localhost` resolves to loopback: refused before connecting.
            let strict = HTTPWebhookSender(policy: .strict)
            await #expect(throws: WebhookAttemptFailed(.addressRefused)) {
                _ = try await strict.post(url: "http://localhost:\(port)/hook", headers: [], body: Array("{}".utf8), timeoutSeconds: 2)
            }
            await #expect(throws: WebhookAttemptFailed(.addressRefused)) {
                _ = try await strict.post(url: "http://127.0.0.1:\(port)/hook", headers: [], body: Array("{}".utf8), timeoutSeconds: 2)
            }
            #expect(receiver.deliveries.isEmpty, "nothing reached the receiver")
            // Allowed, it is delivered; a closed port is a class, not an address.
            let allowed = HTTPWebhookSender(policy: try WebhookAddressPolicy.parse("127.0.0.1,::1").get())
            #expect(try await allowed.post(url: "http://127.0.0.1:\(port)/hook", headers: [], body: Array("{}".utf8), timeoutSeconds: 2) == 204)
            do {
                _ = try await allowed.post(url: "http://127.0.0.1:9/hook", headers: [], body: Array("{}".utf8), timeoutSeconds: 2)
                Issue.record("port 9 answered")
            } catch let failure as WebhookAttemptFailed {
                #expect(failure.kind == .connect || failure.kind == .timeout, "\(failure)")
                #expect(!failure.description.contains("127.0.0.1") && !failure.description.contains(":9"))
            }
            await #expect(throws: WebhookAttemptFailed(.unresolved)) {
                _ = try await allowed.post(url: "http://no-such-host.invalid/hook", headers: [], body: Array("{}".utf8), timeoutSeconds: 2)
            }
        }
    }

    /// #41, DNS rebinding: the name was checked on what it resolved to, then
    /// the HTTP client resolved it again to connect, and a name that answers
    /// a public address to the check and a private one to the connection got
    /// through. Now the attempt connects to the address it checked. Here the
    /// check's resolver knows `hooks.rebound.test` (127.0.0.1, allowed) and
    /// the system's does not: before, the attempt failed unresolved.
    @Test func anAttemptConnectsToTheAddressItChecked() async throws {
        let receiver = WebhookReceiver()
        try await receiver.run { port in
            let pinned = HTTPWebhookSender(policy: try WebhookAddressPolicy.parse("127.0.0.1").get()) { host in
                host == "hooks.rebound.test" ? [try #require(IPAddress("127.0.0.1"))] : []
            }
            #expect(try await pinned.post(url: "http://hooks.rebound.test:\(port)/hook", headers: [], body: Array("{}".utf8), timeoutSeconds: 2) == 204)
            #expect(receiver.deliveries.count == 1)
        }
    }
}
