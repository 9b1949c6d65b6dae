/// What an `Authorization` header carries, read by bytes (RFC 9110 §11.4:
/// the scheme is case-insensitive, optional white space around the value is
/// spaces and tabs; RFC 6750 §2.1: `Bearer`, one space, the token).
///
/// Two readers, one parser: the admin API and `/metrics` take only Bearer
/// credentials (`bearer`); the shipped client apps send their token bare
/// or as Bearer (`token`). By bytes, not with Foundation's
/// `trimmingCharacters` and `lowercased`: those were about 3 % of the
/// server's samples in ops/bench figure 7, where a join reads its
/// credential three times.
public enum AuthorizationHeader {
    /// The token of `Bearer <token>`, the scheme in any case; nil for any
    /// other scheme, a bare token or an empty one.
    public static func bearer(_ header: String) -> String? {
        guard let (start, end) = trimmed(header), let after = afterBearer(header, start, end) else { return nil }
        return after < end ? String(header[after..<end]) : nil
    }

    /// The token of an `Authorization` value, `Bearer` or bare.
    public static func token(_ header: String) -> String? {
        guard let (start, end) = trimmed(header) else { return nil }
        let from = afterBearer(header, start, end) ?? start
        return from < end ? String(header[from..<end]) : nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// The value without its leading and trailing white space; nil when empty.
    private static func trimmed(_ header: String) -> (String.Index, String.Index)? {
        let bytes = header.utf8
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, isSpace(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isSpace(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return start < end ? (start, end) : nil
    }

    /// Where the token starts when the value opens with "bearer" in any case
    /// (ASCII letters differ from their capitals by 0x20) and a space, past
    /// any further white space; nil when it does not.
    private static func afterBearer(_ header: String, _ start: String.Index, _ end: String.Index) -> String.Index? {
        let bytes = header.utf8
        let scheme = Array("bearer".utf8)
        guard bytes.distance(from: start, to: end) > scheme.count,
              zip(bytes[start...].prefix(scheme.count), scheme).allSatisfy({ ($0 | 0x20) == $1 }),
              bytes[bytes.index(start, offsetBy: scheme.count)] == 0x20 else { return nil }
        var after = bytes.index(start, offsetBy: scheme.count + 1)
        while after < end, isSpace(bytes[after]) { after = bytes.index(after: after) }
        return after
    }
}
