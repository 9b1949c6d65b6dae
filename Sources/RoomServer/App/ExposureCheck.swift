import RoomCore

/// Refuses to serve the example tenants' published admin keys to anything
/// beyond this machine. The keys `demo-admin-key` and `acme-admin-key` are
/// printed in the README: a server reachable from a network with them is
/// open to anyone who read it.
public enum ExposureCheck {
    /// SHA-256 of the example keys, as the example tenant files store them.
    public static let exampleKeyDigests: Set<String> = [
        Secrets.sha256Hex("demo-admin-key"), Secrets.sha256Hex("acme-admin-key"),
    ]

    /// Loopback addresses: only this machine can connect.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// The refusal, or nil when serving is safe: `host` is loopback, no
    /// tenant uses an example key, or the operator said this is a demo.
    public static func refusal(host: String, tenants: [Tenant], demo: Bool) -> String? {
        guard !isLoopback(host), !demo else { return nil }
        let exposed = tenants.filter { tenant in tenant.adminKeyHashes.contains { exampleKeyDigests.contains($0) } }.map(\.id).sorted()
        guard !exposed.isEmpty else { return nil }
        return "refusing to listen on \(host) with the example admin keys of tenant(s) \(exposed.joined(separator: ", ")), "
            + "which the README publishes: give them keys of your own (roomkeeper tenants hash-key, the key on standard input), listen on 127.0.0.1, "
            + "or set ROOMKEEPER_DEMO=1 for a demo nobody else can reach"
    }
}
