import RoomCore
import Testing

/// #41: keys given in clear (the operator's, /metrics', a tenant key being
/// hashed) shorter than 128 bits are refused.
@Suite struct KeyStrengthTests {
    @Test func keysUnder128BitsAreRefusedAndGeneratedOnesPass() {
        #expect(KeyStrength.refusal(String(repeating: "a1", count: 16), name: "KEY") == nil, "32 hex digits: 128 bits")
        #expect(KeyStrength.refusal(String(repeating: "a", count: 31), name: "KEY") != nil, "31 hex digits: 124 bits")
        #expect(KeyStrength.refusal("0f3c9a2b7d1e4f6a8b0c2d4e6f8a0b1c3d5e7f9a1b3c5d7e", name: "KEY") == nil, "openssl rand -hex 24")
        #expect(KeyStrength.refusal("Zm9vYmFyYmF6cXV4cXV1eA", name: "KEY") == nil, "22 base64 characters: 131 bits")
        #expect(KeyStrength.refusal("bench-operator", name: "KEY") != nil)
        #expect(KeyStrength.refusal("demo-admin-key", name: "KEY") != nil)
        #expect(KeyStrength.refusal("", name: "KEY") != nil)
        #expect(KeyStrength.refusal("short", name: "ROOMKEEPER_OPERATOR_KEY")?.contains("ROOMKEEPER_OPERATOR_KEY") == true, "the refusal names the key")
    }
}
