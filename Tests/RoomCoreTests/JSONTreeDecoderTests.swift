import Foundation
@testable import RoomKit
import Testing

/// `JSONTreeDecoder` answers what `JSONDecoder` answers (the value, or the
/// error), and decides the ordinary rows itself (`TreeDecoder`), exactly:
/// integers beyond 2^53 included.
@Suite struct JSONTreeDecoderTests {
    /// A plugin row's shape: flat columns, nulls, a raw-value enum.
    struct Row: Codable, Equatable {
        enum Phase: String, Codable { case empty, applying, onMic }
        enum CodingKeys: String, CodingKey { case index = "seat_index", phase, account = "member_account", muted = "self_muted", reason, id }
        let index: Int
        let phase: Phase
        let account: String?
        let muted: Bool
        let reason: Int32
        let id: Int64
    }

    /// Containers and the types JSONDecoder reads by its own rules.
    struct Nested: Codable, Equatable {
        let rows: [Row]
        let byName: [String: [Int]]
        let at: Date?
        let ratio: Double
        let tags: Set<String>
    }

    static let rows = #"""
        [{"seat_index": 0, "phase": "empty", "member_account": null, "self_muted": false, "reason": 0, "id": 9223372036854775807},
         {"seat_index": 1, "phase": "onMic", "member_account": "用户 \"q\" \u00e9 \ud83d\ude00", "self_muted": true, "reason": -4, "id": 9007199254740993}]
        """#

    @Test func rowsAreDecidedByTheTreeExactly() throws {
        let tree = try #require(JSONParser<JSONTree>.parse(Self.rows))
        let decided = try [Row](from: TreeDecoder(tree, path: []))
        #expect(decided == (try JSONDecoder().decode([Row].self, from: Data(Self.rows.utf8))))
        #expect(decided[0].id == Int64.max)
        #expect(decided[1].id == 9_007_199_254_740_993)
        #expect(decided[1].account == "用户 \"q\" é 😀")
        #expect(try JSONTreeDecoder.decode([Row].self, from: Self.rows) == decided)
    }

    @Test(arguments: [
        // Ordinary: decided by the tree.
        #"{"rows": [], "byName": {"a": [1, 2], "b": []}, "at": null, "ratio": 0.25, "tags": ["x", "y"]}"#,
        // A date: JSONDecoder's own rule (seconds since 2001).
        #"{"rows": [], "byName": {}, "at": 12.5, "ratio": 1e3, "tags": []}"#,
        // Errors JSONDecoder words: a missing key, a type mismatch, not JSON.
        #"{"rows": [], "byName": {}, "ratio": 1}"#,
        #"{"rows": [{"seat_index": "1"}], "byName": {}, "at": null, "ratio": 1, "tags": []}"#,
        #"{"rows": [], "byName": {}, "at": null, "ratio": 1, "tags": [1]}"#,
        #"{"rows": "#,
    ])
    func answersWhatJSONDecoderAnswers(_ text: String) {
        Self.expectSameAnswer(text, as: Nested.self)
    }

    @Test(arguments: [
        // Integers written as a fraction, an exponent or out of range: JSONDecoder decides.
        #"{"seat_index": 1.0, "phase": "empty", "member_account": null, "self_muted": false, "reason": 0, "id": 1}"#,
        #"{"seat_index": 1, "phase": "empty", "member_account": null, "self_muted": false, "reason": 1e2, "id": 1}"#,
        #"{"seat_index": 1, "phase": "empty", "member_account": null, "self_muted": false, "reason": 2147483648, "id": 1}"#,
        #"{"seat_index": 1, "phase": "empty", "member_account": null, "self_muted": false, "reason": 0, "id": 9223372036854775808}"#,
        #"{"seat_index": 1, "phase": "gone", "member_account": null, "self_muted": false, "reason": 0, "id": 1}"#,
        #"{"seat_index": 1, "phase": "empty", "self_muted": false, "reason": 0, "id": 1}"#,
    ])
    func numbersAndRefusalsAreJSONDecoders(_ text: String) {
        Self.expectSameAnswer(text, as: Row.self)
    }

    static func expectSameAnswer<T: Decodable & Equatable>(_ text: String, as type: T.Type) {
        let ours = Result { try JSONTreeDecoder.decode(type, from: text) }
        let theirs = Result { try JSONDecoder().decode(type, from: Data(text.utf8)) }
        switch (ours, theirs) {
        case (.success(let ours), .success(let theirs)): #expect(ours == theirs)
        case (.failure(let ours), .failure(let theirs)): #expect(String(describing: ours) == String(describing: theirs))
        default: Issue.record("JSONTreeDecoder answered \(ours), JSONDecoder \(theirs), for \(text)")
        }
    }
}
