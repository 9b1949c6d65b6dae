import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import Logging
import RoomCore
import RoomProviders
import Synchronization

/// `GET /t/{tenant}/im/ws`: the local IM's client endpoint. Credentials
/// never travel in the URL (proxies log URLs): the first frame logs in,
/// `{"type":"login","accid","token"}`, within `loginSeconds`, and is answered
/// `{"type":"ready","accid"}`. Then client frames (JSON text):
/// `{"type":"enter"|"leave","chatroom"}`, `{"type":"text","chatroom","text"}`,
/// `{"type":"ping"}`. Server frames: `entered`, `left`, `message`, `queue`,
/// `muted`, `closed`, `notification`, `pong`, and `error` (`code`, `message`)
/// for a frame it could not accept (`banned` for an enter while a ban keeps
/// the account out of the room); the connection stays usable after an error.
/// The server closes with 4001 (no or bad login), 4003 (revoked, expired, banned from the tenant),
/// 4008 (a client too slow to read its frames), 4029 (too many sockets, or
/// too many failed logins for the account or the address: `FailedLogins`),
/// 1013 (the login could not be checked just now: try again).
struct LocalIMSocket: Sendable {
    let tenants: TenantDirectory
    let hub: LocalIMHub
    /// Proxies whose `X-Forwarded-For` names the client, as for client routes.
    let trustedProxies: Set<String>
    /// The sockets waiting to log in (one per server instance).
    let waitingRoom: LoginWaitingRoom

    /// Frames larger than this get an error frame; the socket's hard limit is larger.
    static let maxFrame = 8 * 1024
    static let maxText = 2_000
    /// 5 s: a client sends its login frame as soon as the socket opens; a
    /// socket that sends none holds a place in the waiting room until then
    /// (#41: it was 10 s).
    static let loginSeconds = 5
    static let unauthorized = WebSocketErrorCode(codeNumber: 4001)
    static let notServed = WebSocketErrorCode(codeNumber: 4004)
    static let revoked = WebSocketErrorCode(codeNumber: 4003)
    static let tooMany = WebSocketErrorCode(codeNumber: 4029)
    /// RFC 6455's "Try Again Later": the server could not check the login now.
    static let tryAgain = WebSocketErrorCode(codeNumber: 1013)

    func register(on router: Router<IMSocketContext>) {
        router.ws("t/:tenant/im/ws") { inbound, outbound, context in
            let tenantID = context.requestContext.parameters.get("tenant") ?? ""
            guard let tenant = tenants[tenantID], let local = tenant.imAdapter(LocalIMProvider.self) else {
                try await outbound.close(Self.notServed, reason: "tenant \(tenantID) has no local IM")
                return
            }
            // The socket's statements are its tenant's share of the pool (#41).
            do {
                try await LeaseOwner.$tenant.withValue(tenantID) {
                    try await serve(inbound, outbound, context, tenantID: tenantID, local: local)
                }
            } catch {
                try? await Self.closeFailed(outbound, error, logger: context.logger)
            }
        }
    }

    private func serve(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, _ context: WebSocketRouterContext<IMSocketContext>,
                       tenantID: TenantID, local: LocalIMProvider) async throws {
        let query = context.request.uri.queryParameters
        guard query.get("token") == nil else {
            try await outbound.close(Self.unauthorized, reason: "credentials go in the login frame, never in the URL")
            return
        }
        var logger = context.logger
        logger[metadataKey: "tenant"] = "\(tenantID)"
        let address = ClientAddress.resolve(peer: context.requestContext.peerAddress,
                                            forwardedFor: context.request.headers.first { $0.name.canonicalName == "x-forwarded-for" }?.value, trusted: trustedProxies)
        // Sockets that have not logged in are few and small (#27), and
        // bounded per address and tenant (#41): a reconnect storm, or a
        // stranger's sockets opened and never logged in, cannot take what
        // others need.
        let ticket: LoginWaitingRoom.Ticket
        switch waitingRoom.enter(address: address, tenant: tenantID, evict: {
            Task { try? await outbound.close(Self.tooMany, reason: "too many sockets waiting to log in here; this one waited longest") }
        }) {
        case .admitted(let admitted): ticket = admitted
        case .refused(let reason):
            try await outbound.close(Self.tooMany, reason: reason)
            return
        }
        var frames = inbound.makeAsyncIterator()
        let credentials: LoginFrame?
        do {
            credentials = try await Self.login(&frames, outbound: outbound, local: local, address: address, logger: logger)
        } catch {
            waitingRoom.leave(ticket)
            throw error
        }
        waitingRoom.leave(ticket)
        guard let credentials else { return }
        let session = Session(local: local, hub: hub, accid: credentials.accid, connection: UUID(), logger: logger)
        try await session.run(frames: &frames, outbound: outbound)
    }
}

extension LocalIMSocket {
    /// Reads the login frame (at most 8 KiB, within `loginSeconds`) and checks
    /// it; nil when the socket was closed instead.
    static func login(_ frames: inout WebSocketInboundStream.AsyncIterator, outbound: WebSocketOutboundWriter,
                      local: LocalIMProvider, address: String, logger: Logger) async throws -> LoginFrame? {
        let deadline = Task {
            try await Task.sleep(for: .seconds(loginSeconds))
            try await outbound.close(unauthorized, reason: "no login frame within \(loginSeconds) s")
        }
        defer { deadline.cancel() }
        let login: WebSocketMessage?
        do {
            login = try await frames.nextMessage(maxSize: maxFrame)
        } catch {
            try await outbound.close(unauthorized, reason: "the login frame must be at most \(maxFrame) bytes")
            return nil
        }
        guard case .text(let text)? = login, let credentials = LoginFrame(text) else {
            try await outbound.close(unauthorized, reason: "the first frame must be a login with a valid accid and token")
            return nil
        }
        do {
            guard try await local.verify(accid: credentials.accid, token: credentials.token, address: address) else {
                try await outbound.close(unauthorized, reason: "the first frame must be a login with a valid accid and token")
                return nil
            }
        } catch let error as RoomError {
            try await outbound.close(tooMany, reason: error.description)
            return nil
        }
        return credentials
    }

    /// A socket whose login check, registration or anything else before its
    /// session's own loop failed: the database (or the password checks'
    /// queue) could not answer, and the client is told to try again (1013);
    /// anything else is an internal error (1011). Either is logged. Before,
    /// the error went up to the WebSocket handler, which closed the socket
    /// 1011 with nothing said (CI's load test, after the chaos run: a login
    /// check, then a socket's registration, each seen twice or three times).
    static func closeFailed(_ outbound: WebSocketOutboundWriter, _ error: any Error, logger: Logger) async throws {
        // The client went away first: nothing to tell it, nothing wrong here.
        if error is ChannelError || error is CancellationError { return }
        switch Failure(classifying: error) {
        case .databaseUnavailable, .outcomeUnknown:
            logger.warning("a local-IM socket could not be served just now; told to try again", metadata: ["error": "\(String(reflecting: error))"])
            try await outbound.close(tryAgain, reason: "the server could not serve this socket just now; try again")
        default:
            logger.error("a local-IM socket failed", metadata: ["error": "\(String(reflecting: error))"])
            try await outbound.close(.unexpectedServerError, reason: "the server failed")
        }
    }
}

/// `{"type":"login","accid","token"}`.
struct LoginFrame {
    let accid: AccountID
    let token: String

    init?(_ text: String) {
        guard text.utf8.count <= LocalIMSocket.maxFrame, case .object(let frame)? = JSONValue.parse(text),
              frame["type"]?.string == "login", let accid = frame["accid"]?.string, let token = frame["token"]?.string,
              (1...128).contains(accid.utf8.count), (1...256).contains(token.utf8.count) else { return nil }
        self.accid = accid
        self.token = token
    }
}

/// One connected client.
struct Session: Sendable {
    let local: LocalIMProvider
    let hub: LocalIMHub
    let accid: AccountID
    let connection: UUID
    let logger: Logger

    /// Largest message a logged-in socket may send (frames past `maxFrame` get an error frame).
    static let maxMessage = 1 << 20

    func run(frames messages: inout WebSocketInboundStream.AsyncIterator, outbound: WebSocketOutboundWriter) async throws {
        switch try await local.connect(connection, accid: accid, instance: hub.instanceID) {
        case .admitted: break
        case .accountFull(let limit):
            return try await outbound.close(LocalIMSocket.tooMany, reason: "this account already holds \(limit) sockets")
        case .tenantFull(let limit):
            return try await outbound.close(LocalIMSocket.tooMany, reason: "this tenant already holds \(limit) sockets")
        case .banned:
            return try await outbound.close(LocalIMSocket.revoked, reason: "this account is banned from the tenant")
        }
        guard let frames = hub.register(connection, tenantID: local.tenantID, accid: accid) else {
            try? await local.disconnect(connection)
            return try await outbound.close(LocalIMSocket.tooMany, reason: "this server holds as many sockets as it may; try again")
        }
        defer { hub.unregister(connection) }
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // A revoked or too-slow connection stops receiving at once, then closes.
                    for await frame in frames {
                        if hub.ending(of: connection) != nil { break }
                        try await outbound.write(.text(frame))
                    }
                    if let ending = hub.ending(of: connection) {
                        try await outbound.close(WebSocketErrorCode(codeNumber: Int(ending.code)), reason: ending.reason)
                    }
                }
                reply(Frames.encode(.object(["type": .string("ready"), "accid": .string(accid)])))
                try await hub.deliverStored(tenantID: local.tenantID, to: accid)
                var limiter = RateLimiter(perSecond: 20, burst: 40)
                while let message = try await messages.nextMessage(maxSize: Self.maxMessage) {
                    if hub.ending(of: connection) != nil { break }
                    guard limiter.allow() else {
                        reply(Frames.error("rate_limited", "too many frames; at most 20 a second"))
                        continue
                    }
                    guard case .text(let text) = message else {
                        reply(Frames.error("bad_frame", "frames are JSON text"))
                        continue
                    }
                    try await handle(text)
                }
                if hub.ending(of: connection) == nil { hub.unregister(connection) }
                try await group.waitForAll()
            }
        } catch {
            logger.debug("local IM connection ended", metadata: ["error": "\(String(describing: type(of: error)))"])
        }
        try? await local.disconnect(connection)
    }

    private func reply(_ frame: String) {
        hub.send(frame, to: connection)
    }

    private func handle(_ text: String) async throws {
        guard text.utf8.count <= LocalIMSocket.maxFrame else {
            return reply(Frames.error("too_large", "frames may be at most \(LocalIMSocket.maxFrame) bytes"))
        }
        guard case .object(let frame)? = JSONValue.parse(text), case .string(let type)? = frame["type"] else {
            return reply(Frames.error("bad_frame", "a frame is a JSON object with a \"type\""))
        }
        if type == "ping" { return reply(Frames.encode(.object(["type": .string("pong")]))) }
        guard case .string(let chatroom)? = frame["chatroom"], !chatroom.isEmpty else {
            return reply(Frames.error("invalid_field", "chatroom: required, a string"))
        }
        switch type {
        case "enter":
            let entered: Bool
            do {
                entered = try await local.enter(chatroom, connection: connection, accid: accid)
            } catch RoomError.banned {
                return reply(Frames.error("banned", "you are banned from chatroom \(chatroom)"))
            }
            guard entered else {
                return reply(Frames.error("unknown_chatroom", "chatroom \(chatroom) does not exist or is closed"))
            }
            hub.entered(connection, chatroom: chatroom)
            let queue = try await local.queueList(chatroom).map { JSONValue.object(["key": .string($0.key), "value": .string($0.value)]) }
            reply(Frames.encode(.object([
                "type": .string("entered"), "chatroom": .string(chatroom),
                "muted": .bool(try await local.isMuted(chatroom)), "queue": .array(queue),
            ])))
        case "leave":
            try await local.exit(chatroom, connection: connection)
            hub.left(connection, chatroom: chatroom)
            reply(Frames.encode(.object(["type": .string("left"), "chatroom": .string(chatroom)])))
        case "text":
            guard case .string(let body)? = frame["text"], !body.isEmpty, body.count <= LocalIMSocket.maxText else {
                return reply(Frames.error("invalid_field", "text: required, 1-\(LocalIMSocket.maxText) characters"))
            }
            guard hub.isEntered(connection, chatroom: chatroom) else {
                return reply(Frames.error("not_entered", "enter chatroom \(chatroom) before sending to it"))
            }
            switch try await local.sendText(chatroom, from: accid, text: body) {
            case .sent: break
            case .muted: reply(Frames.error("muted", "chatroom \(chatroom) is muted"))
            case .mutedMember: reply(Frames.error("member_muted", "you are muted in chatroom \(chatroom) by a moderator"))
            case .closed: reply(Frames.error("unknown_chatroom", "chatroom \(chatroom) is closed"))
            }
        default:
            reply(Frames.error("unknown_type", "unknown frame type \(type)"))
        }
    }
}
