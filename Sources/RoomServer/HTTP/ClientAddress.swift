import HTTPTypes

/// Which address a request comes from, for per-address limits. A client
/// can write any `X-Forwarded-For` it likes, so the header counts only when
/// the peer is a trusted proxy, and then only its entries that proxies
/// appended: read from the right, the first address that is not a trusted
/// proxy is the client.
enum ClientAddress {
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    static func resolve(peer: String?, forwardedFor: String?, trusted: Set<String>) -> String {
        guard let peer else { return "unknown" }
        guard trusted.contains(peer), let forwardedFor else { return peer }
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for hop in hops.reversed() where !trusted.contains(hop) { return String(hop.prefix(64)) }
        return peer
    }
}
