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

    public static func notLoggedIn(_ detail: String = "sid is missing, invalid or expired; log in again") -> ClientError {
        ClientError(code: notLoggedIn, message: detail)
    }
}
