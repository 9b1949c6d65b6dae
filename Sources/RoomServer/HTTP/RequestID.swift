import Foundation
import HTTPTypes

/// A request's id, for the audit log and for matching a caller's records to
/// ours: the caller's `X-Request-Id` when it is a plain token (1-64 of
/// letters, digits, `.`, `_`, `:`, `-`; anything else could smuggle text
/// into logs), else the id Hummingbird gave the request, which its log lines
/// carry as `hb.request.id`. Sent back in the response's header.
enum RequestID {
    static let header = HTTPField.Name("X-Request-Id")!

    static func of(_ headers: HTTPFields, context: RoomRequestContext) -> String {
        if let given = headers[header], isPlain(given) { return given }
        return context.logger[metadataKey: "hb.request.id"].map { "\($0)" } ?? UUID().uuidString.lowercased()
    }

    static func isPlain(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && text.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || [0x2E, 0x5F, 0x3A, 0x2D].contains($0)
        }
    }
}
