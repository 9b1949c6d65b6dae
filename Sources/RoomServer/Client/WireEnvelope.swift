import Foundation
import Hummingbird
import RoomCore

/// The one encoder of each client envelope style. Answers are HTTP 200 with
/// the outcome in the body, as the shipped apps expect.
enum WireEnvelope {
    static func success(_ style: WireStyle, _ data: any Encodable & Sendable) throws -> Response {
        switch style {
        case .netease: try json(NetEaseSuccess(data: data))
        case .sealmic: try json(SealMicSuccess(result: data))
        }
    }

    static func failure(_ style: WireStyle, _ error: ClientError) -> Response {
        switch style {
        case .netease: (try? json(NetEaseFailure(code: error.code, msg: error.message))) ?? Response(status: .internalServerError)
        case .sealmic: (try? json(SealMicFailure(errCode: error.code, errMsg: error.message, errDetail: error.message))) ?? Response(status: .internalServerError)
        }
    }

    /// The style's code for a parameter it could not accept.
    static func badParameter(_ style: WireStyle, _ error: ParameterError) -> ClientError {
        ClientError(code: style == .netease ? 400 : 1, message: error.description)
    }

    /// The style's default for an engine refusal (a plugin may override).
    static func roomError(_ style: WireStyle, _ error: RoomError) -> ClientError {
        switch style {
        case .netease:
            switch error {
            case .notFound: ClientError(code: 804, message: error.description)
            case .closed: ClientError(code: 801, message: error.description)
            case .tooManyRooms, .tooManyRoomsForOwner: ClientError(code: 429, message: error.description)
            case .notOwner, .full, .reservedForOthers, .banned, .notMember: ClientError(code: 403, message: error.description)
            case .notInIMChatroom: ClientError(code: 800, message: error.description)
            case .pluginNotEnabled: ClientError(code: 404, message: error.description)
            case .invalid, .invalidOptions, .referenceNotFound, .conflicts: ClientError(code: 400, message: error.description)
            // NetEase's own code for "called too often".
            case .rateLimited: ClientError(code: 416, message: error.description)
            }
        case .sealmic:
            switch error {
            case .notFound, .closed: ClientError(code: 20, message: error.description)
            case .notOwner, .reservedForOthers, .banned: ClientError(code: 3, message: error.description)
            case .full: ClientError(code: 27, message: error.description)
            case .tooManyRooms, .tooManyRoomsForOwner: ClientError(code: 26, message: error.description)
            case .notInIMChatroom, .notMember: ClientError(code: 21, message: error.description)
            case .pluginNotEnabled: ClientError(code: 4, message: error.description)
            case .invalid, .invalidOptions, .referenceNotFound, .conflicts: ClientError(code: 1, message: error.description)
            case .rateLimited: ClientError(code: 4, message: error.description)
            }
        }
    }

    /// An IM or media vendor the request needed failed: nothing was done.
    static func providerError(_ style: WireStyle, service: String = "IM") -> ClientError {
        ClientError(code: style == .netease ? 800 : 4, message: "the \(service) service did not answer; try again")
    }

    /// PostgreSQL is restarting or failing over: nothing was done; try again.
    static func unavailable(_ style: WireStyle) -> ClientError {
        ClientError(code: style == .netease ? 503 : 4, message: "the service is unavailable for a moment; try again")
    }

    static func internalError(_ style: WireStyle) -> ClientError {
        ClientError(code: style == .netease ? 500 : 4, message: "internal error")
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    private static func json(_ value: some Encodable) throws -> Response {
        let data = try encoder.encode(value)
        var headers = HTTPFields()
        headers[.contentType] = "application/json;charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

private struct NetEaseSuccess: Encodable {
    let data: any Encodable & Sendable
    enum Keys: String, CodingKey { case code, data }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(200, forKey: .code)
        try container.encode(data, forKey: .data)
    }
}

private struct NetEaseFailure: Encodable {
    let code: Int
    let msg: String
}

private struct SealMicSuccess: Encodable {
    let result: any Encodable & Sendable
    enum Keys: String, CodingKey { case errCode, errMsg, errDetail, data }
    enum DataKeys: String, CodingKey { case result }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(0, forKey: .errCode)
        try container.encode("OK", forKey: .errMsg)
        try container.encode("", forKey: .errDetail)
        var data = container.nestedContainer(keyedBy: DataKeys.self, forKey: .data)
        try data.encode(result, forKey: .result)
    }
}

private struct SealMicFailure: Encodable {
    let errCode: Int
    let errMsg: String
    let errDetail: String
}
