import Foundation
import RoomCore

/// HTTP/1.1 requests from a client address of the test's choosing
/// (127.0.0.2 as a second client), over a bare connection: the test client
/// of Hummingbird always speaks from 127.0.0.1.
public struct AddressedHTTP: Sendable {
    public let port: Int
    public let source: String

    public init(port: Int, from source: String) {
        self.port = port
        self.source = source
    }

    public struct Answer: Sendable {
        public let status: Int
        /// Header names lowercased.
        public let headers: [String: String]
        public let text: String
        public var json: JSONValue { JSONValue.parse(text) ?? .null }
    }

    /// POSTs a form body (the NetEase-style apps' way), with `headers` added.
    public func form(_ path: String, _ body: String, headers: [String: String] = [:]) async throws -> Answer {
        try await request("POST", path, body: body, headers: ["Content-Type": "application/x-www-form-urlencoded;charset=utf-8"].merging(headers) { $1 })
    }

    public func request(_ method: String, _ path: String, body: String = "", headers: [String: String] = [:]) async throws -> Answer {
        let connection = try await RawConnection.open(port: port, from: source)
        defer { Task { await connection.close() } }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        try await connection.write(head + "\r\n" + body)
        guard await connection.closedByServer(within: .seconds(20)) else { throw NoAnswer(path: path) }
        return try Self.parse(connection.received, path: path)
    }

    static func parse(_ raw: String, path: String) throws -> Answer {
        guard let split = raw.range(of: "\r\n\r\n") else { throw NoAnswer(path: path) }
        let lines = raw[..<split.lowerBound].components(separatedBy: "\r\n")
        guard let status = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { throw NoAnswer(path: path) }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = String(raw[split.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
        return Answer(status: status, headers: headers, text: body)
    }

    /// A chunked body's data (sizes and their line ends taken out).
    static func dechunk(_ body: String) -> String {
        var out = "", rest = Substring(body)
        while let end = rest.range(of: "\r\n"), let size = Int(rest[..<end.lowerBound], radix: 16), size > 0 {
            let start = end.upperBound
            let bytes = rest[start...].utf8.prefix(size)
            out += String(decoding: bytes, as: UTF8.self)
            rest = rest[start...].dropFirst(String(decoding: bytes, as: UTF8.self).count).dropFirst(2)
        }
        return out
    }

    struct NoAnswer: Error, CustomStringConvertible {
        let path: String
        var description: String { "no whole HTTP answer to \(path)" }
    }
}
