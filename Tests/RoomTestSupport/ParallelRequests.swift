import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RoomCore

/// Requests that really arrive at once: the test client sends one request at
/// a time on one connection, so a race test fires its burst through
/// AsyncHTTPClient, a connection per request.
public enum ParallelRequests {
    /// POSTs `body` as a form to `path` on 127.0.0.1:`port`, `count` times at
    /// once; the answers as JSON, in no particular order.
    public static func form(port: Int, _ path: String, _ body: String, count: Int) async throws -> [JSONValue] {
        try await send(port: port, Array(repeating: Request(path: path, body: body), count: count)).map(\.answer)
    }

    /// One POST of a burst.
    public struct Request: Sendable {
        public var path: String
        public var body: String
        public var contentType: String
        public var headers: [(String, String)]

        public init(path: String, body: String, contentType: String = "application/x-www-form-urlencoded;charset=utf-8", headers: [(String, String)] = []) {
            self.path = path
            self.body = body
            self.contentType = contentType
            self.headers = headers
        }
    }

    /// Sends every request at once, a connection each; each answer as JSON
    /// with the request's index.
    public static func send(port: Int, _ requests: [Request]) async throws -> [(index: Int, answer: JSONValue)] {
        try await RawHTTP.using(port: port, connections: requests.count) { http in
            try await withThrowingTaskGroup(of: (Int, JSONValue).self) { group in
                for (index, one) in requests.enumerated() {
                    group.addTask {
                        let answer = try await http.send(.POST, one.path, headers: [("Content-Type", one.contentType)] + one.headers, body: one.body)
                        return (index, JSONValue.parse(answer.text) ?? .string(answer.text))
                    }
                }
                return try await group.reduce(into: [(index: Int, answer: JSONValue)]()) { $0.append($1) }
            }
        }
    }
}

/// Requests on fresh connections (AsyncHTTPClient): a hostile request that
/// makes the server close its connection does not end the test client's,
/// and a response the client cannot parse is reported, not fatal.
public final class RawHTTP: Sendable {
    let client: HTTPClient
    let port: Int

    /// `connections`: how many may be open at once (a burst's size).
    public init(port: Int, connections: Int = 8) {
        self.port = port
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(5), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, connections))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    public func send(_ method: HTTPMethod, _ uri: String, headers: [(String, String)], body: String?) async throws -> (status: Int, text: String) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(uri)")
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await client.execute(request, timeout: .seconds(30))
        return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: 4 << 20)))
    }

    public func shutdown() async throws {
        try await client.shutdown()
    }

    /// Runs `body` with a client that is shut down whatever `body` does: a
    /// request that threw left it open, and its deinit then stopped the
    /// whole test run (AsyncHTTPClient traps on an open client; CI at
    /// e70a124, one send of RoomQuotaRaceTests' 1,000 failing on a loaded machine).
    public static func using<T>(port: Int, connections: Int = 8, _ body: (RawHTTP) async throws -> T) async throws -> T {
        let raw = RawHTTP(port: port, connections: connections)
        do {
            let result = try await body(raw)
            try await raw.shutdown()
            return result
        } catch {
            try? await raw.shutdown()
            throw error
        }
    }
}
