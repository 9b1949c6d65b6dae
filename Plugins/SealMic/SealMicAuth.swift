import Foundation
import RoomKit

/// The caller behind `Authorization: <token>` (`WireProtocol.sealmic`'s
/// credential): a signed token with an expiry, backed by a revocable
/// session of this plugin.
enum SealMicAuth {
    static func account<Settings>(_ call: ClientCall<Settings>) async throws -> Account {
        guard let token = WireProtocol.sealmic.credential(call) else { throw SealMicCode.invalidAuth("the Authorization header is missing; call /user/login") }
        let accounts = call.accounts
        guard let account = try await accounts.resolveSigned(token: token) else {
            throw SealMicCode.invalidAuth()
        }
        return account
    }
}
