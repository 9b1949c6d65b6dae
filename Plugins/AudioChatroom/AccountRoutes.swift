import Foundation
import RoomCore

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
        ClientRoute("/user/get") { call in
            let accounts = AccountStore(database: call.services.database, clock: call.services.clock)
            let ttl = call.settings.sessionTTLSeconds
            let pluginID = AudioChatroomPlugin.pluginID
            // A live sid is renewed and given back; anything else gets a new guest.
            if let sid = call.parameters.string("sid"),
               let (account, expiresAt) = try await accounts.resolve(call.tenant.id, sid: sid, pluginID: pluginID, renewSeconds: ttl) {
                let credentials = try await call.tenant.im.createAccount(IMAccount(accid: account.accid, name: account.nickname, avatar: account.avatar))
                return UserInfo(sid: sid, accid: account.accid, nickname: account.nickname, icon: account.avatar,
                                imToken: credentials.token, availableAt: expiresAt.epochMilliseconds)
            }
            let avatar = call.settings.avatars.randomElement() ?? ""
            let account = try await accounts.createGuest(call.tenant.id, prefix: "user", nickname: { "用户" + $0.suffix(6) }, avatar: avatar)
            let credentials = try await call.tenant.im.createAccount(IMAccount(accid: account.accid, name: account.nickname, avatar: avatar))
            let session = try await accounts.openSession(call.tenant.id, accid: account.accid, pluginID: pluginID, ttlSeconds: ttl)
            return UserInfo(sid: session.sid, accid: account.accid, nickname: account.nickname, icon: avatar,
                            imToken: credentials.token, availableAt: session.expiresAt.epochMilliseconds)
        },
    ]
}
