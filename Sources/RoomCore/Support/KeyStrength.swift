import Foundation

/// How strong a key given in clear is (#41: "keys shorter than 128 bits are
/// refused"): its length times the bits a character carries in the smallest
/// alphabet it is written in (hex digits 4, lowercase and digits 5.2, base64
/// 6). A key of a person's choosing carries far fewer, so this only refuses
/// what is surely too short; the guides say to generate keys
/// (`openssl rand -hex 24`: 192 bits).
public enum KeyStrength {
    public static let minimumBits = 128

    /// The key's bits as written, at most.
    public static func bits(_ key: String) -> Double {
        let scalars = key.unicodeScalars
        guard !scalars.isEmpty else { return 0 }
        let isHex = scalars.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) || ("A"..."F").contains($0) }
        var alphabet = 0
        if isHex {
            alphabet = 16
        } else {
            if scalars.contains(where: { ("a"..."z").contains($0) }) { alphabet += 26 }
            if scalars.contains(where: { ("A"..."Z").contains($0) }) { alphabet += 26 }
            if scalars.contains(where: { ("0"..."9").contains($0) }) { alphabet += 10 }
            if scalars.contains(where: { !($0.properties.isAlphabetic && $0.isASCII) && !("0"..."9").contains($0) }) { alphabet += 33 }
        }
        return Double(scalars.count) * log2(Double(max(alphabet, 2)))
    }

    /// Why `key` is refused, naming `name`; nil when it is strong enough.
    public static func refusal(_ key: String, name: String) -> String? {
        let bits = bits(key)
        guard bits < Double(minimumBits) else { return nil }
        return "\(name) carries at most \(Int(bits)) bits; keys must carry at least \(minimumBits) (generate one: openssl rand -hex 24)"
    }
}
