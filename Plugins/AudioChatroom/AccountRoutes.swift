import Foundation
import RoomKit

/// `/user/get`: a guest account with an IM token, and an opaque session.
enum AccountRoutes {
    struct UserInfo: Encodable, Sendable {
        let sid: String
        let accid: String
        let nickname: String
        let icon: String
        let imToken: String
        let availableAt: Int64
    }

    static let routes: [ClientRoute<AudioChatroomPlugin.Settings>] = [
        ClientRoute("/user/get", handle: userGet),
    ]

    static func userGet(_ call: ClientCall<AudioChatroomPlugin.Settings>) async throws -> UserInfo {
        let login = try await GuestLogin.login(call, ttlSeconds: call.settings.sessionTTLSeconds,
                                               prefix: "user", nickname: { "用户" + $0.suffix(6) }, avatar: call.settings.avatars.randomElement() ?? "")
        return UserInfo(sid: login.sid, accid: login.account.accid, nickname: login.account.nickname, icon: login.account.avatar,
                        imToken: login.imToken, availableAt: login.expiresAt.epochMilliseconds)
    }
}
