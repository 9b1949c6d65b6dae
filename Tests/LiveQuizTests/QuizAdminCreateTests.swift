import Foundation
import LiveQuiz
import RoomCore
import RoomTestSupport
import Testing

/// #27, item 5: a game made through the admin API takes its questions
/// exactly as the contract states them (schemathesis found a question with
/// a field the contract does not name accepted).
@Suite struct QuizAdminCreateTests {
    @Test func aQuestionWithAFieldTheContractDoesNotNameIsRefusedNamingIt() async throws {
        let fixture = try await QuizFixture(table: "[plugins.live-quiz]\n")
        try await fixture.server.live { http in
            let path = "/admin/v1/tenants/\(fixture.server.id(0))/rooms"
            let question = #"{"question":"q","options":["a","b"],"rightAnswer":1}"#
            func body(_ first: String) -> String {
                #"{"plugin":"live-quiz","name":"game","owner":"host","options":{"deviceId":"pc-\#(uniqueID())","bonus":5,"password":"password1","questions":[\#(first),\#(question),\#(question)]}}"#
            }
            let extra = try await http.post(path, key: fixture.server.operatorKey, json: body(#"{"question":"q","options":["a","b"],"rightAnswer":0,"hint":"x"}"#))
            #expect(extra.status == .unprocessableContent && extra.json["field"]?.string == "options.questions[0].hint", "\(extra.text)")
            let exact = try await http.post(path, key: fixture.server.operatorKey, json: body(question))
            #expect(exact.status == .created, "\(exact.text)")
        }
    }
}
