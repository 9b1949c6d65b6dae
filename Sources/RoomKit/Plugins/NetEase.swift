/// The codes of the NetEase-style apps (audio-chatroom, music-lesson,
/// live-quiz, headset-live), shared so no plugin invents its own.
public enum NetEase {
    public static let badParameter = 400
    public static let notLoggedIn = 401
    public static let forbidden = 403
    public static let rateLimited = 407
    public static let chatroomError = 800
    public static let roomClosed = 801
    public static let roomNotFound = 804
    /// Beyond the originals: a mic seat whose state does not allow the operation.
    public static let seatStateConflict = 1101
    /// Beyond the originals: the account already holds or applied for another seat.
    public static let alreadySeated = 1102

    public static func notLoggedIn(_ detail: String = "sid is missing, invalid or expired; call /user/get") -> ClientError {
        ClientError(code: notLoggedIn, message: detail)
    }

    /// The account behind the call's `sid`: a live session of this plugin, or
    /// (only where `accidAsSid` is on, for shipped apps that send the accid)
    /// an existing account named by it.
    /// With `accidAsSid`, an `accid` parameter stands for the sid too (the
    /// music-lesson seed's apps send `accid`).
    public static func account<Settings>(_ call: ClientCall<Settings>, accidAsSid: Bool = false, renewSeconds: Int? = nil) async throws -> Account {
        guard let sid = WireProtocol.netease.credential(call) ?? (accidAsSid ? call.parameters.string("accid") : nil) else { throw notLoggedIn() }
        if let (account, _) = try await call.accounts.resolve(sid: sid, renewSeconds: renewSeconds) {
            return account
        }
        if accidAsSid, let account = try await call.accounts.actingAs(sid) { return account }
        throw notLoggedIn()
    }
}
