import AsyncHTTPClient
import Foundation
import NIOCore
import RoomCore

/// Requests that really arrive at once: the test client sends one request at
/// a time on one connection, so a race test fires its burst through
/// AsyncHTTPClient, a connection per request.
public enum ParallelRequests {
    /// POSTs `body` as a form to `path` on 127.0.0.1:`port`, `count` times at
    /// once; the answers as JSON, in no particular order.
    public static func form(port: Int, _ path: String, _ body: String, count: Int) async throws -> [JSONValue] {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(5), concurrentHTTP1ConnectionsPerHostSoftLimit: count)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let answers = try await withThrowingTaskGroup(of: JSONValue.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded;charset=utf-8")
                        request.body = .bytes(ByteBuffer(string: body))
                        let response = try await client.execute(request, timeout: .seconds(30))
                        let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
                        return JSONValue.parse(text) ?? .string(text)
                    }
                }
                return try await group.reduce(into: [JSONValue]()) { $0.append($1) }
            }
            try await client.shutdown()
            return answers
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
