import Foundation

/// How a plugin's clients speak (#28, item 6): the envelope of an answer,
/// the codes a failure gets, and where a caller's credential travels. The
/// server owns the HTTP; a plugin names one of these (`.netease`,
/// `.sealmic`) and only returns data or throws.
public struct WireProtocol: Sendable {
    /// Shown to operators (`GET /admin/v1/plugins`).
    public let name: String
    public let codes: WireCodes
    public let credential: Credential
    /// What the credential is, so the engine resolves it one way.
    public let session: SessionToken
    /// What a request without a live session is told (with `codes.notLoggedIn`).
    public let notLoggedInText: String
    /// The whole body of a success carrying `data`.
    let success: @Sendable (any Encodable & Sendable) -> any Encodable
    /// The whole body of a refusal.
    let failure: @Sendable (ClientError) -> any Encodable

    public init(name: String, codes: WireCodes, credential: Credential, session: SessionToken, notLoggedInText: String,
                success: @escaping @Sendable (any Encodable & Sendable) -> any Encodable,
                failure: @escaping @Sendable (ClientError) -> any Encodable) {
        self.name = name
        self.codes = codes
        self.credential = credential
        self.session = session
        self.notLoggedInText = notLoggedInText
        self.success = success
        self.failure = failure
    }

    /// Where a caller's session credential travels.
    public enum Credential: Sendable, Equatable {
        /// A form or query parameter (NetEase's `sid`).
        case parameter(String)
        /// The `Authorization` header, a bare token ("Bearer " tolerated).
        case authorizationHeader
    }

    /// What a session credential is.
    public enum SessionToken: Sendable, Equatable {
        /// A random token: the stored session decides (NetEase's `sid`).
        case opaque
        /// A token signed with the tenant's key and an expiry, checked
        /// without I/O before the stored session is read (SealMic's).
        case signed
    }

    /// The refusal of a request without a live session, in the wire's code.
    public func notLoggedIn() -> ClientError {
        ClientError(code: codes.notLoggedIn, message: notLoggedInText)
    }

    /// The credential a request carries, if any: the server's, to scope an
    /// `Idempotency-Key` and an account's budget. A route asks
    /// `ClientCall.caller()` (#42 item 4: the wire is read once, by the engine).
    public func credential(parameters: WireParameters, headers: [String: String]) -> String? {
        switch credential {
        case .parameter(let name):
            return parameters.string(name)
        case .authorizationHeader:
            guard let header = headers["authorization"] else { return nil }
            return AuthorizationHeader.token(header)
        }
    }

    /// The refusal a failure is answered with. `plugin` may word an engine
    /// refusal in the plugin's own code (`RoomPlugin.clientError(for:)`).
    public func clientError(for failure: Failure, plugin: (RoomError) -> ClientError? = { _ in nil }) -> ClientError {
        switch failure {
        case .refused(let error): error
        case .badParameter(let error): ClientError(code: codes.badParameter, message: error.description)
        case .room(let error): plugin(error) ?? ClientError(code: codes.room(error), message: error.description)
        case .provider(let service, _, _): ClientError(code: codes.providerFailed, message: "the \(service) service did not answer; try again")
        case .databaseUnavailable: ClientError(code: codes.unavailable, message: "the service is unavailable for a moment; try again")
        case .outcomeUnknown: ClientError(code: codes.unavailable, message: Failure.outcomeUnknownText)
        case .internal: ClientError(code: codes.internalError, message: "internal error")
        }
    }

    /// The body of a success, as JSON.
    public func successBody(_ data: any Encodable & Sendable) throws -> Data {
        try WireJSONEncoder.encode(success(data))
    }

    /// The body of a refusal, as JSON.
    public func failureBody(_ error: ClientError) -> Data {
        (try? WireJSONEncoder.encode(failure(error))) ?? Data("{}".utf8)
    }
}

/// The codes of one wire for what is not a plugin's own refusal.
public struct WireCodes: Sendable {
    public var badParameter: Int
    public var notLoggedIn: Int
    /// An IM or media vendor did not answer or refused.
    public var providerFailed: Int
    /// The database is away for a moment.
    public var unavailable: Int
    public var internalError: Int
    /// The wire's default for each engine refusal (a plugin may word its own).
    public var room: @Sendable (RoomError) -> Int

    public init(badParameter: Int, notLoggedIn: Int, providerFailed: Int, unavailable: Int, internalError: Int,
                room: @escaping @Sendable (RoomError) -> Int) {
        self.badParameter = badParameter
        self.notLoggedIn = notLoggedIn
        self.providerFailed = providerFailed
        self.unavailable = unavailable
        self.internalError = internalError
        self.room = room
    }
}

extension WireProtocol {
    /// `{"code":200,"data":…}` / `{"code":N,"msg":"…"}`, the session in `sid`
    /// (audio-chatroom, music-lesson, live-quiz, headset-live).
    public static let netease = WireProtocol(
        name: "netease",
        codes: WireCodes(badParameter: NetEase.badParameter, notLoggedIn: NetEase.notLoggedIn, providerFailed: NetEase.chatroomError,
                         unavailable: 503, internalError: 500) { error in
            switch error {
            case .notFound: NetEase.roomNotFound
            case .closed: NetEase.roomClosed
            case .tooManyRooms, .tooManyRoomsForOwner, .tooManyAccounts: 429
            case .notOwner, .full, .reservedForOthers, .banned, .notMember: NetEase.forbidden
            case .notInIMChatroom: NetEase.chatroomError
            case .pluginNotEnabled: 404
            case .invalid, .invalidOptions, .referenceNotFound, .conflicts: NetEase.badParameter
            // NetEase's own code for "called too often".
            case .rateLimited: 416
            }
        },
        credential: .parameter("sid"), session: .opaque,
        notLoggedInText: "sid is missing, invalid or expired; log in again",
        success: { NetEaseSuccess(data: $0) },
        failure: { NetEaseFailure(code: $0.code, msg: $0.message) })

    /// `{"errCode":0,"errMsg":"OK","errDetail":"","data":{"result":…}}`, the
    /// session in `Authorization` (sealmic).
    public static let sealmic = WireProtocol(
        name: "sealmic",
        codes: WireCodes(badParameter: 1, notLoggedIn: 2, providerFailed: 4, unavailable: 4, internalError: 4) { error in
            switch error {
            case .notFound, .closed: 20
            case .notOwner, .reservedForOthers, .banned: 3
            case .full: 27
            case .tooManyRooms, .tooManyRoomsForOwner: 26
            case .notInIMChatroom, .notMember: 21
            // SealMic has no code for a full tenant: 4 is its "failed, try later".
            case .pluginNotEnabled, .rateLimited, .tooManyAccounts: 4
            case .invalid, .invalidOptions, .referenceNotFound, .conflicts: 1
            }
        },
        credential: .authorizationHeader, session: .signed,
        notLoggedInText: "Authorization is missing, invalid, expired or revoked; call /user/login",
        success: { SealMicSuccess(result: $0) },
        failure: { SealMicFailure(errCode: $0.code, errMsg: $0.message, errDetail: $0.message) })
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
