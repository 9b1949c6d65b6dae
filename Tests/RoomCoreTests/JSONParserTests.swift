import Foundation
import RoomCore
import Testing

/// JSONValue.parse reads what JSONDecoder reads, and refuses what it refuses.
@Suite struct JSONParserTests {
    @Test(arguments: [
        #"{"a":[1,-2.5,3e2,true,false,null],"b":{"c":"d"},"e":""}"#,
        #"[]"#, #"{}"#, #""x""#, #"12"#, #"null"#,
        #"{"escapes":"\" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00 中文"}"#,
        " { \"spaced\" : [ 1 , 2 ] } ",
    ])
    func agreesWithJSONDecoder(_ text: String) throws {
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(JSONValue.parse(text) == decoded)
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\"}", "{\"a\":1,}", "tru", "\"unterminated", "[1] 2", "\"bad \\x escape\"", "{'a':1}"])
    func refusesMalformedJSON(_ text: String) {
        #expect(JSONValue.parse(text) == nil)
    }
}
