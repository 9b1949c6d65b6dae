import NIOCore

/// Where webhooks may go: nowhere private unless the operator says so.
///
/// Why (#27): a tenant admin could point a webhook at loopback, a private
/// network or the cloud metadata address (169.254.169.254) and read the
/// attempt's error text back: a probe of our own network. Such addresses
/// are refused when the tenant file loads (a literal address or a name such
/// as `localhost`) and again before every attempt, on the addresses the
/// name resolves to then (a name may resolve elsewhere later).
///
/// The operator allow-lists hosts, addresses or networks in
/// `ROOMKEEPER_WEBHOOK_ALLOW` (comma-separated: `hooks.internal`,
/// `127.0.0.1`, `10.1.0.0/16`).
public struct WebhookAddressPolicy: Sendable {
    public static let environmentName = "ROOMKEEPER_WEBHOOK_ALLOW"

    private let hosts: Set<String>
    private let networks: [Network]

    /// Allows nothing private.
    public static let strict = WebhookAddressPolicy(hosts: [], networks: [])

    private init(hosts: Set<String>, networks: [Network]) {
        self.hosts = hosts
        self.networks = networks
    }

    /// Reads the allow-list; nil and the entry when one is neither a host
    /// name, an address nor a network.
    public static func parse(_ text: String) -> Result<WebhookAddressPolicy, WebhookEndpoint.ConfigProblem> {
        var hosts: Set<String> = [], networks: [Network] = []
        for entry in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !entry.isEmpty {
            if entry.contains("/") {
                guard let network = Network(entry) else { return .failure(WebhookEndpoint.ConfigProblem(description: "\(entry) is not a network such as 10.1.0.0/16")) }
                networks.append(network)
            } else if let address = IPAddress(entry) {
                networks.append(Network(address: address, prefix: address.bytes.count * 8))
            } else if entry.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) {
                hosts.insert(entry)
            } else {
                return .failure(WebhookEndpoint.ConfigProblem(description: "\(entry) is not a host name, an address or a network"))
            }
        }
        return .success(WebhookAddressPolicy(hosts: hosts, networks: networks))
    }

    public static func from(environment: [String: String]) -> Result<WebhookAddressPolicy, WebhookEndpoint.ConfigProblem> {
        parse(environment[environmentName] ?? "")
    }

    /// Why a URL's host may not receive webhooks, judged from its name
    /// alone (at load), or nil.
    public func refusal(host: String) -> String? {
        let name = Self.bare(host)
        if hosts.contains(name) { return nil }
        if let address = IPAddress(name) { return refusal(address) }
        if name == "localhost" || name.hasSuffix(".localhost") || name.hasSuffix(".local") || name.hasSuffix(".internal") {
            return "names a local host; the operator may allow it in \(Self.environmentName)"
        }
        return nil
    }

    /// Why `host`, resolved to `addresses` for an attempt, may not receive
    /// it, or nil. Every address must be allowed.
    public func refusal(host: String, addresses: [IPAddress]) -> String? {
        if hosts.contains(Self.bare(host)) { return nil }
        for address in addresses {
            if let refusal = refusal(address) { return refusal }
        }
        return addresses.isEmpty ? "resolves to no address" : nil
    }

    private func refusal(_ address: IPAddress) -> String? {
        guard address.isPrivate, !networks.contains(where: { $0.contains(address) }) else { return nil }
        return "is a loopback, private, link-local or reserved address; the operator may allow it in \(Self.environmentName)"
    }

    private static func bare(_ host: String) -> String {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        return name
    }

    struct Network: Sendable {
        let address: IPAddress
        let prefix: Int

        init(address: IPAddress, prefix: Int) {
            self.address = address
            self.prefix = prefix
        }

        init?(_ text: String) {
            let parts = text.split(separator: "/", maxSplits: 1)
            guard parts.count == 2, let address = IPAddress(String(parts[0])), let prefix = Int(parts[1]),
                  (0...address.bytes.count * 8).contains(prefix) else { return nil }
            self.init(address: address, prefix: prefix)
        }

        func contains(_ other: IPAddress) -> Bool {
            guard other.bytes.count == address.bytes.count else { return false }
            return IPAddress.samePrefix(address.bytes, other.bytes, bits: prefix)
        }
    }
}

/// An IPv4 or IPv6 address as its bytes.
public struct IPAddress: Sendable, Equatable {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A literal address (`10.0.0.1`, `::1`, `[fd00::1]`), or nil.
    public init?(_ text: String) {
        var literal = text
        if literal.hasPrefix("["), literal.hasSuffix("]") { literal = String(literal.dropFirst().dropLast()) }
        guard !literal.isEmpty, literal.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }),
              let address = try? SocketAddress(ipAddress: literal, port: 0) else { return nil }
        self.init(address)
    }

    /// The address of a resolved socket address, or nil for a Unix socket.
    public init?(_ address: SocketAddress) {
        switch address {
        case .v4(let v4):
            var raw = v4.address.sin_addr
            bytes = withUnsafeBytes(of: &raw) { Array($0) }
        case .v6(let v6):
            var raw = v6.address.sin6_addr
            bytes = withUnsafeBytes(of: &raw) { Array($0) }
        case .unixDomainSocket:
            return nil
        }
    }

    /// Its textual form (`10.0.0.1`, `::1`).
    public var text: String {
        (try? SocketAddress(packedIPAddress: ByteBuffer(bytes: bytes), port: 0))?.ipAddress ?? ""
    }

    /// Loopback, private (RFC 1918, ULA), link-local, shared (CGNAT),
    /// unspecified, multicast or reserved: never a public receiver.
    public var isPrivate: Bool {
        if bytes.count == 4 { return Self.privateV4.contains { Self.samePrefix($0.0, bytes, bits: $0.1) } }
        // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address.
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff
            || bytes[0..<12] == [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0][...] {
            return IPAddress(bytes: Array(bytes[12...])).isPrivate
        }
        // 6to4 (2002:a.b.c.d::/48) wraps an IPv4 address, relayed to it (#41).
        if bytes[0] == 0x20 && bytes[1] == 0x02 { return IPAddress(bytes: Array(bytes[2..<6])).isPrivate }
        return Self.privateV6.contains { Self.samePrefix($0.0, bytes, bits: $0.1) }
    }

    private static let privateV4: [([UInt8], Int)] = [
        ([0, 0, 0, 0], 8), ([10, 0, 0, 0], 8), ([100, 64, 0, 0], 10), ([127, 0, 0, 0], 8), ([169, 254, 0, 0], 16),
        ([172, 16, 0, 0], 12), ([192, 0, 0, 0], 24), ([192, 168, 0, 0], 16), ([198, 18, 0, 0], 15), ([224, 0, 0, 0], 4), ([240, 0, 0, 0], 4),
    ]

    private static let privateV6: [([UInt8], Int)] = [
        (Array(repeating: 0, count: 16), 96),            // ::, ::1 and IPv4-compatible ::a.b.c.d (deprecated; #41)
        ([0, 0x64, 0xff, 0x9b, 0, 1] + Array(repeating: 0, count: 10), 48),  // local-use NAT64 64:ff9b:1::/48 (#41)
        ([0xfe, 0xc0] + Array(repeating: 0, count: 14), 10),  // site-local (deprecated; #41)
        ([0xfc] + Array(repeating: 0, count: 15), 7),    // unique local
        ([0xfe, 0x80] + Array(repeating: 0, count: 14), 10),  // link-local
        ([0xff] + Array(repeating: 0, count: 15), 8),    // multicast
    ]

    static func samePrefix(_ a: [UInt8], _ b: [UInt8], bits: Int) -> Bool {
        guard a.count == b.count else { return false }
        var left = bits
        for (x, y) in zip(a, b) where left > 0 {
            let mask: UInt8 = left >= 8 ? 0xff : ~(0xff >> UInt8(left))
            if x & mask != y & mask { return false }
            left -= 8
        }
        return true
    }
}
