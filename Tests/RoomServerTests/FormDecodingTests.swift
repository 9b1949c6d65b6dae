import Foundation
import RoomCore
@testable import RoomServer
import Testing

/// Client parameters are decoded by bytes (#28, item 7: Foundation's string
/// methods were 3.5 % of the server's CPU samples in figure 1), as
/// Foundation decoded every well-formed form: `+` a space, `%XX` its byte.
/// A part with a malformed escape, or that is not UTF-8 once decoded, is
/// kept as sent (Foundation kept some such parts and replaced bytes of
/// others with U+FFFD).
@Suite struct FormDecodingTests {
    /// What the server did before: the reference.
    static func foundationDecode(_ part: Substring) -> String {
        let spaced = part.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    static func foundationParse(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let key = foundationDecode(pair[..<equals])
            guard !key.isEmpty else { continue }
            values[key] = foundationDecode(pair[pair.index(after: equals)...])
        }
        return values
    }

    @Test func theShippedAppsFormsDecodeAsBefore() {
        let forms = [
            "sid=abc&roomName=%E4%B8%AD%E6%96%87", "a=1&&b=2", "bare&x=1", "=novalue&k=", "name=a+b%2Bc", "x=%F0%9F%98%80", "x=%00",
            "k%3D=v%26w", "中文=值+1", "a=1&a=2", "x=100%25", "%41=%42",
        ]
        for form in forms {
            #expect(FormDecoding.parseForm(form) == Self.foundationParse(form), "\(form)")
        }
    }

    /// Random well-formed forms: every escape complete and of whole UTF-8
    /// characters, with separators, `+` and multi-byte text between.
    @Test func randomFormsDecodeAsFoundationDid() {
        let alphabet = ["+", "=", "&", "a", "Z", "0", "4", "E", "f", "%E4%B8%AD", "%C3%A9", "%2B", "%26", "%3D", "%25", "%20", "中", "é", " ", "%F0%9F%98%80"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let form = (0..<Int.random(in: 0...16, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            #expect(FormDecoding.parseForm(form) == Self.foundationParse(form), "\(form)")
        }
    }

    /// Malformed escapes and escapes of bytes that are not UTF-8: kept as sent.
    @Test func aPartThatDoesNotDecodeIsKeptAsSent() {
        for part in ["%zz", "%E4%B8", "%A9", "%", "%4", "%ff", "100%", "a+%C3Z"] {
            #expect(FormDecoding.parseForm("x=\(part)") == ["x": part.replacingOccurrences(of: "+", with: " ")], "\(part)")
        }
    }

    @Test func jsonBodiesAreToldApartFromForms() throws {
        let json = try FormDecoding.parameters(query: nil, body: Array(" \n{\"a\": 1, \"b\": \"x\"}".utf8), contentType: nil)
        #expect(json.string("a") == "1" && json.string("b") == "x")
        let form = try FormDecoding.parameters(query: "a=q", body: Array("b=%7B".utf8), contentType: "application/x-www-form-urlencoded")
        #expect(form.string("a") == "q" && form.string("b") == "{")
        let wide = try FormDecoding.parameters(query: nil, body: Array("\u{3000}{\"a\":\"w\"}".utf8), contentType: nil)
        #expect(wide.string("a") == "w", "Unicode white space before a JSON body, as Foundation trimmed it")
        #expect(throws: ParameterError.self) { try FormDecoding.parameters(query: "n=a%00b", body: [], contentType: nil) }
    }

    @Test func aJSONContentTypeIsFoundInAnyCase() throws {
        for type in ["application/json", "Application/JSON; charset=utf-8", "text/x-Json", "jjson", "jsoN", "application/x-www-form-urlencoded",
                     "", "jso", "j s o n", "application/vnd.api+jsonx"] {
            #expect(FormDecoding.containsJSON(type.utf8) == type.lowercased().contains("json"), "\(type)")
        }
        let body = try FormDecoding.parameters(query: nil, body: Array("{\"a\":\"j\"}".utf8), contentType: "APPLICATION/JSON")
        #expect(body.string("a") == "j")
        let named = try #require(throws: ParameterError.self) { try FormDecoding.parameters(query: "ok=1", body: Array("bad%00key=1".utf8), contentType: nil) }
        #expect(named.field == "badkey", "a NUL is refused by the field's name, without the NUL")
    }
}
