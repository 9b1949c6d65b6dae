import Crypto
import Foundation
import RoomCore
import Testing

/// Signed tokens are refused for what they say alone: altered, another
/// tenant's, expired or malformed, before any database lookup.
@Suite struct SignedTokenTests {
    let key = SymmetricKey(data: Array(repeating: UInt8(7), count: 32))
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aTokenVerifiesForItsTenantUntilItExpires() throws {
        let token = SignedToken(sessionID: "ab12", expiresAt: 1_800_000_060).encoded(tenantID: "demo", key: key)
        #expect(try SignedToken.verify(token, tenantID: "demo", key: key, now: now).get() == SignedToken(sessionID: "ab12", expiresAt: 1_800_000_060))
        #expect(SignedToken.verify(token, tenantID: "acme", key: key, now: now) == .failure(.badSignature))
        #expect(SignedToken.verify(token, tenantID: "demo", key: SymmetricKey(size: .bits256), now: now) == .failure(.badSignature))
        #expect(SignedToken.verify(token, tenantID: "demo", key: key, now: now.addingTimeInterval(60)) == .failure(.expired))
    }

    @Test func alteredOrMalformedTokensAreRefused() {
        let token = SignedToken(sessionID: "ab12", expiresAt: 1_800_000_060).encoded(tenantID: "demo", key: key)
        let parts = token.split(separator: ".").map(String.init)
        let longer = "\(parts[0]).1900000000.\(parts[2])"
        #expect(SignedToken.verify(longer, tenantID: "demo", key: key, now: now) == .failure(.badSignature), "a later expiry breaks the signature")
        #expect(SignedToken.verify("ab13.\(parts[1]).\(parts[2])", tenantID: "demo", key: key, now: now) == .failure(.badSignature))
        for bad in ["", "abc", "ab12.x.\(parts[2])", "zz.1.2", "ab12..", "a.b.c.d"] {
            #expect(SignedToken.verify(bad, tenantID: "demo", key: key, now: now) == .failure(.malformed), "\(bad)")
        }
    }
}
