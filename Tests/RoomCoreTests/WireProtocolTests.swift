import Foundation
import RoomCore
import Testing

/// The one failure classifier and the two wires that render it (#28, item 6),
/// without I/O: each error type lands in one `Failure`, and each wire answers
/// it with the codes the shipped apps read (the wire tables of docs/plugins.md).
@Suite struct WireProtocolTests {
    struct Strange: Error {}

    @Test func everyErrorTypeIsClassifiedOnce() {
        let refusal = ClientError(code: 1101, message: "seat taken")
        #expect(Failure(classifying: refusal) == .refused(refusal))
        let parameter = ParameterError(field: "roomId", reason: "is required")
        #expect(Failure(classifying: parameter) == .badParameter(parameter))
        #expect(Failure(classifying: RoomError.full(capacity: 2)) == .room(.full(capacity: 2)))
        #expect(Failure(classifying: IMError.timeout(operation: "open")) == .provider(service: "IM", transient: true, detail: "IM provider timed out on open"))
        #expect(Failure(classifying: MediaError.rejected(operation: "push", code: "x", message: "no")) ==
                .provider(service: "media", transient: false, detail: "media provider refused push: x no"))
        guard case .databaseUnavailable = Failure(classifying: DatabaseUnavailable("failing over")) else {
            Issue.record("PostgreSQL away is not classified as unavailable")
            return
        }
        guard case .internal = Failure(classifying: Strange()) else {
            Issue.record("an unknown error is not internal")
            return
        }
    }

    /// SealMic's credential is the `Authorization` value, with or without
    /// "Bearer " (any case), without the spaces and tabs around it; nothing
    /// but white space, or a scheme alone, is no credential at all.
    @Test func theAuthorizationHeadersToken() {
        let wire = WireProtocol.sealmic
        func token(_ value: String?) -> String? {
            wire.credential(parameters: WireParameters(), headers: value.map { ["authorization": $0] } ?? [:])
        }
        #expect(token(nil) == nil)
        #expect(token("abc.def") == "abc.def")
        #expect(token("  \tabc.def \t") == "abc.def")
        #expect(token("Bearer abc.def") == "abc.def")
        #expect(token("bEaReR   abc.def  ") == "abc.def")
        #expect(token("Bearer") == "Bearer", "a scheme without a token is taken as the token, as before")
        #expect(token("Bearer   ") == "Bearer")
        #expect(token("Bearerabc") == "Bearerabc")
        #expect(token("Bearer\u{0}abc") == "Bearer\u{0}abc", "only a space ends the scheme")
        #expect(token("Bearer 令牌 ") == "令牌")
        #expect(token("   ") == nil)
        #expect(token("") == nil)
        // A parameter wire reads its own parameter, not the header.
        #expect(WireProtocol.netease.credential(parameters: WireParameters(["sid": "s1"]), headers: ["authorization": "Bearer x"]) == "s1")
    }

    /// The admin API's and /metrics' keys are Bearer credentials only,
    /// the scheme in any case (RFC 9110 §11.1): a bare key is no key.
    @Test func bearerCredentialsOnly() {
        #expect(AuthorizationHeader.bearer("Bearer k1") == "k1")
        #expect(AuthorizationHeader.bearer("bearer k1") == "k1")
        #expect(AuthorizationHeader.bearer(" BEARER \t k1 \t") == "k1")
        #expect(AuthorizationHeader.bearer("k1") == nil, "a bare key")
        #expect(AuthorizationHeader.bearer("Basic azE6") == nil)
        #expect(AuthorizationHeader.bearer("Bearer") == nil)
        #expect(AuthorizationHeader.bearer("Bearer    ") == nil)
        #expect(AuthorizationHeader.bearer("Bearerk1") == nil)
        #expect(AuthorizationHeader.bearer("") == nil)
    }

    @Test func onlyRefusalsAreFinal() {
        #expect(Failure.refused(ClientError(code: 1, message: "x")).isFinal)
        #expect(Failure.badParameter(ParameterError(field: "a", reason: "b")).isFinal)
        #expect(Failure.room(.closed).isFinal)
        #expect(!Failure.room(.rateLimited(action: "creates", limit: RateLimit(1, per: 3))).isFinal, "too often: try again later")
        #expect(!Failure.provider(service: "IM", transient: false, detail: "").isFinal)
        #expect(!Failure.databaseUnavailable(detail: "").isFinal)
        #expect(!Failure.internal(detail: "").isFinal)
    }

    @Test func neteaseCodes() {
        let wire = WireProtocol.netease
        let expected: [(RoomError, Int)] = [
            (.notFound, 804), (.closed, 801), (.notOwner, 403), (.full(capacity: 1), 403), (.reservedForOthers, 403), (.banned, 403),
            (.notMember, 403), (.notInIMChatroom, 800), (.pluginNotEnabled("x"), 404), (.tooManyRooms(limit: 1), 429),
            (.tooManyRoomsForOwner(limit: 1), 429), (.invalid(field: "a", reason: "b"), 400), (.invalidOptions(field: "a", reason: "b"), 400),
            (.referenceNotFound(field: "a", reason: "b"), 400), (.conflicts(field: "a", reason: "b"), 400),
            (.rateLimited(action: "creates", limit: RateLimit(1, per: 1)), 416),
        ]
        for (error, code) in expected {
            #expect(wire.clientError(for: .room(error)) == ClientError(code: code, message: error.description), "\(error)")
        }
        #expect(wire.clientError(for: .badParameter(ParameterError(field: "sid", reason: "is required"))) == ClientError(code: 400, message: "sid is required"))
        #expect(wire.clientError(for: .provider(service: "IM", transient: true, detail: "secret detail")).code == 800)
        #expect(wire.clientError(for: .databaseUnavailable(detail: "")).code == 503)
        let internalError = wire.clientError(for: .internal(detail: "PostgreSQL error 23505: a value"))
        #expect(internalError == ClientError(code: 500, message: "internal error"), "an internal error's detail is never sent")
    }

    @Test func sealmicCodes() {
        let wire = WireProtocol.sealmic
        let expected: [(RoomError, Int)] = [
            (.notFound, 20), (.closed, 20), (.notOwner, 3), (.reservedForOthers, 3), (.banned, 3), (.full(capacity: 1), 27),
            (.tooManyRooms(limit: 1), 26), (.notInIMChatroom, 21), (.notMember, 21), (.pluginNotEnabled("x"), 4),
            (.invalid(field: "a", reason: "b"), 1), (.rateLimited(action: "creates", limit: RateLimit(1, per: 1)), 4),
        ]
        for (error, code) in expected {
            #expect(wire.clientError(for: .room(error)).code == code, "\(error)")
        }
        #expect(wire.codes.notLoggedIn == 2)
        for failure in [Failure.provider(service: "IM", transient: true, detail: ""), .databaseUnavailable(detail: ""), .internal(detail: "")] {
            #expect(wire.clientError(for: failure).code == 4)
        }
    }

    @Test func aPluginWordsAnEngineRefusalItself() {
        let plugin: (RoomError) -> ClientError? = { $0 == .full(capacity: 2) ? ClientError(code: 27, message: "the room is full (2 members)") : nil }
        #expect(WireProtocol.sealmic.clientError(for: .room(.full(capacity: 2)), plugin: plugin) == ClientError(code: 27, message: "the room is full (2 members)"))
        #expect(WireProtocol.sealmic.clientError(for: .room(.notFound), plugin: plugin).code == 20)
        // Only engine refusals are the plugin's to word.
        #expect(WireProtocol.sealmic.clientError(for: .databaseUnavailable(detail: ""), plugin: { _ in ClientError(code: 99, message: "") }).code == 4)
    }

    struct Payload: Encodable, Sendable { let roomId: Int }

    @Test func envelopes() throws {
        func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
        let netease = WireProtocol.netease, sealmic = WireProtocol.sealmic
        #expect(try JSONValue.parse(text(netease.successBody(Payload(roomId: 7)))) == ["code": 200, "data": ["roomId": 7]])
        #expect(JSONValue.parse(text(netease.failureBody(ClientError(code: 804, message: "room not found")))) == ["code": 804, "msg": "room not found"])
        #expect(try JSONValue.parse(text(sealmic.successBody(Payload(roomId: 7)))) ==
                ["errCode": 0, "errMsg": "OK", "errDetail": "", "data": ["result": ["roomId": 7]]])
        #expect(JSONValue.parse(text(sealmic.failureBody(ClientError(code: 20, message: "gone")))) == ["errCode": 20, "errMsg": "gone", "errDetail": "gone"])
        #expect(text(netease.failureBody(ClientError(code: 1, message: "a/b"))).contains("a/b"), "slashes are not escaped")
    }

    @Test func credentials() {
        let netease = WireProtocol.netease, sealmic = WireProtocol.sealmic
        #expect(netease.credential(parameters: WireParameters(["sid": "abc"]), headers: ["authorization": "xyz"]) == "abc")
        #expect(netease.credential(parameters: WireParameters(), headers: ["authorization": "xyz"]) == nil)
        #expect(sealmic.credential(parameters: WireParameters(["sid": "abc"]), headers: [:]) == nil)
        #expect(sealmic.credential(parameters: WireParameters(), headers: ["authorization": " tok "]) == "tok")
        #expect(sealmic.credential(parameters: WireParameters(), headers: ["authorization": "Bearer tok"]) == "tok")
        #expect(sealmic.credential(parameters: WireParameters(), headers: ["authorization": "   "]) == nil)
        #expect(sealmic.credential(parameters: WireParameters(), headers: ["authorization": ""]) == nil)
    }
}
