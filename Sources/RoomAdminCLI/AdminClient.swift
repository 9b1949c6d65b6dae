import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RoomKit

/// The admin API over HTTP for `roomkeeper admin` (#44): the same URL and
/// key as the console. The key comes from the environment
/// (`ROOMKEEPER_ADMIN_KEY`) or a file, never the command line, where any
/// user of the machine could read it in the process list.
public struct AdminClient: Sendable {
    public let baseURL: String
    let key: String

    public init(baseURL: String, key: String) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.key = key
    }

    public struct Answer: Sendable {
        public let status: Int
        public let contentType: String
        public let body: String
        public var json: JSONValue { JSONValue.parse(body) ?? .null }
    }

    /// `method` on `/admin/v1/<path>`; a problem answer (4xx, 5xx) is thrown as `AdminCLIError`.
    public func send(_ method: HTTPMethod, _ path: String, json: String? = nil) async throws -> Answer {
        var request = HTTPClientRequest(url: "\(baseURL)/admin/v1/\(path)")
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(key)")
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = String(buffer: try await response.body.collect(upTo: 64 << 20))
        let answer = Answer(status: Int(response.status.code), contentType: response.headers.first(name: "Content-Type") ?? "", body: body)
        guard (200..<300).contains(answer.status) else { throw AdminCLIError(problem: answer) }
        return answer
    }
}

/// A refusal as the operator reads it: the problem's title, its detail and
/// the field it names.
public struct AdminCLIError: Error, CustomStringConvertible {
    public let description: String

    public init(_ text: String) {
        description = text
    }

    init(problem answer: AdminClient.Answer) {
        let json = answer.json
        let title = json["title"]?.string ?? "HTTP \(answer.status)"
        var text = title
        if let detail = json["detail"]?.string { text += ": \(detail)" }
        if let field = json["field"]?.string { text += " (field \(field))" }
        description = text
    }
}
