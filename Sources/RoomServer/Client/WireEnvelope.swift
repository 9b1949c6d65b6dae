import Foundation
import Hummingbird
import RoomCore

/// A client route's answer as HTTP: always 200, the outcome in the body in
/// the plugin's wire (`WireProtocol`), as the shipped apps expect.
enum WireEnvelope {
    static func success(_ wire: WireProtocol, _ data: any Encodable & Sendable) throws -> Response {
        response(try wire.successBody(data))
    }

    static func failure(_ wire: WireProtocol, _ error: ClientError) -> Response {
        response(wire.failureBody(error))
    }

    static func failure(_ wire: WireProtocol, _ failure: Failure) -> Response {
        Self.failure(wire, wire.clientError(for: failure))
    }

    private static func response(_ data: Data) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json;charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
