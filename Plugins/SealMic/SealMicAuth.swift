import Foundation
import RoomKit

/// `Authorization: <token>` (no "Bearer", though one is tolerated): a signed
/// token with an expiry, backed by a revocable session of this plugin.
enum SealMicAuth {
    static func token<Settings>(_ call: ClientCall<Settings>) -> String? {
        guard var value = call.headers["authorization"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.lowercased().hasPrefix("bearer ") { value = String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
        return value.isEmpty ? nil : value
    }

    static func account<Settings>(_ call: ClientCall<Settings>) async throws -> Account {
        guard let token = token(call) else { throw SealMicCode.invalidAuth("the Authorization header is missing; call /user/login") }
        let accounts = call.accounts
        guard let account = try await accounts.resolveSigned(token: token) else {
            throw SealMicCode.invalidAuth()
        }
        return account
    }
}
