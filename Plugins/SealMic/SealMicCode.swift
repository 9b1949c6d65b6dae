import RoomKit

/// SealMic's errCodes, as the shipped SealMic apps read them (the README's
/// sealmic table lists each), shared by every SealMic route.
enum SealMicCode {
    static let badParameter = 1
    static let invalidAuth = WireProtocol.sealmic.codes.notLoggedIn
    static let accessDenied = 3
    static let badRequest = 4
    static let roomNotFound = 20
    static let notInRoom = 21
    static let micPositionError = 24
    static let micPositionLocked = 25
    static let tooManyRooms = 26
    static let tooManyMembers = 27
    static let alreadyOnMic = 28

    static func invalidAuth(_ detail: String = "Authorization is missing, invalid, expired or revoked; call /user/login") -> ClientError {
        ClientError(code: invalidAuth, message: detail)
    }
}
