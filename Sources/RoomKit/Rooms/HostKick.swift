import Foundation

/// A room host's kick as a plugin's own route takes it (#29): who,
/// optionally for how long (kept out of the room meanwhile) and why. Every
/// plugin reads it the same way and hands it to `call.rooms.kick`, which
/// lets only the room's owner (or an admin) through.
public struct HostKick: Sendable, Equatable {
    public let account: AccountID
    public let seconds: Int?
    public let reason: String

    /// A year and a day at most, as the admin API's kick.
    public static let longest = 366 * 86_400

    /// `account` (1-128 characters), `durationSeconds` (1 s to 366 days;
    /// absent: only taken out), `reason` (at most 256 characters).
    public init(_ parameters: WireParameters) throws(ParameterError) {
        let account = try parameters.required("account")
        guard TextRules.fits(account, 1...128) else { throw ParameterError(field: "account", reason: "must be 1-128 characters without NUL") }
        self.account = account
        let seconds = try parameters.int64("durationSeconds")
        if let seconds, !(1...Int64(Self.longest)).contains(seconds) {
            throw ParameterError(field: "durationSeconds", reason: "must be between 1 and \(Self.longest) seconds")
        }
        self.seconds = seconds.map(Int.init)
        let reason = parameters.string("reason") ?? ""
        guard TextRules.fits(reason, 0...256) else { throw ParameterError(field: "reason", reason: "must be at most 256 characters without NUL") }
        self.reason = reason
    }
}

extension PluginRooms {
    /// The host's kick: `host` must own the room (the engine refuses anyone else).
    @discardableResult
    public func kick(_ roomID: RoomID, _ kick: HostKick, by host: AccountID) async throws -> Int64? {
        try await self.kick(roomID, account: kick.account, forSeconds: kick.seconds, reason: kick.reason, by: .account(host))
    }
}

extension ClientRoute {
    /// The host's kick of a room named by `roomId`, answered `{}` (the
    /// NetEase apps' shape): the route the conformance suite drives. Three
    /// plugins wrote it out the same way; a plugin whose host is found
    /// otherwise (a quiz's password, SealMic's room id) writes its own.
    public static func hostKick(_ path: String) -> ClientRoute {
        ClientRoute(path, handle: kickByHost)
    }

    @Sendable private static func kickByHost(_ call: ClientCall<Settings>) async throws -> EmptyObject {
        let roomID = try call.parameters.requiredInt64("roomId")
        let kick = try HostKick(call.parameters)
        try await call.rooms.kick(roomID, kick, by: try await call.caller().accid)
        return EmptyObject()
    }
}
