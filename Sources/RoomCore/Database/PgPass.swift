import Foundation

/// libpq's password file (`PGPASSFILE`, else `~/.pgpass`): lines of
/// `host:port:database:user:password`, `*` matching anything, `\:` and `\\`
/// escaped. Lets `DATABASE_URL` carry no password, as psql and pgbench do.
public enum PgPass {
    public static func password(host: String, port: Int, database: String?, user: String,
                                environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let path = environment["PGPASSFILE"] ?? environment["HOME"].map { "\($0)/.pgpass" }
        guard let path, let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let wanted = [host, String(port), database ?? user, user]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = split(String(line))
            guard fields.count == 5 else { continue }
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    /// Splits on unescaped colons, unescaping `\:` and `\\`.
    static func split(_ line: String) -> [String] {
        var fields: [String] = [], current = "", escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 4 {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}
