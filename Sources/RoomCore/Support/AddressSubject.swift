import Foundation

/// The subject a per-address limit counts a client by (#41): an IPv4
/// address as it is, an IPv6 address by its /64. One IPv6 host is handed a
/// whole /64 (2^64 addresses), so counting whole addresses would give it
/// as many budgets as it likes.
public enum AddressSubject {
    public static func of(_ address: String) -> String {
        guard let ip = IPAddress(address), ip.bytes.count == 16 else { return address }
        // An IPv4-mapped address (::ffff:a.b.c.d) is that IPv4 host.
        if ip.bytes[0..<10].allSatisfy({ $0 == 0 }) && ip.bytes[10] == 0xff && ip.bytes[11] == 0xff {
            return ip.bytes[12...].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(ip.bytes[$0]) << 8 | UInt16(ip.bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
