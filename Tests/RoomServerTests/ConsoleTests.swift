import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// #18, item 4: the console is served by Roomkeeper itself, under a policy
/// that runs no inline script, and its script never turns data into HTML.
/// (ops/console-check drives it in a real browser on the cluster.)
@Suite struct ConsoleTests {
    @Test func theConsoleIsServedUnderAStrictPolicy() async throws {
        let fixture = try await ServerFixture()
        try await fixture.live { http in
            let page = try await http.get("/console")
            #expect(page.status == .ok && page.headers[.contentType]?.hasPrefix("text/html") == true)
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("script-src 'self'") && policy.contains("default-src 'none'") && policy.contains("frame-ancestors 'none'"))
            #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
            #expect(page.headers[.xContentTypeOptions] == "nosniff")

            // Every script is a file of this origin; no element carries a handler.
            let scripts = page.text.components(separatedBy: "<script").dropFirst()
            #expect(!scripts.isEmpty && scripts.allSatisfy { $0.hasPrefix(#" src="/console/"#) && $0.contains("></script>") })
            #expect(page.text.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil, "no inline event handler")
            #expect(page.text.range(of: #"style=""#) == nil, "no inline style")

            let script = try await http.get("/console/app.js")
            #expect(script.status == .ok && script.headers[.contentType]?.hasPrefix("text/javascript") == true)
            for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
                #expect(!script.text.contains(sink), "the script never uses \(sink)")
            }
            #expect(script.text.contains("sessionStorage") && !script.text.contains("localStorage"), "the key lives in the tab's session only")
            // The audit view's action filter offers every action the engine audits
            // (its own list lacked tenant.move; it is AuditAction's now).
            for action in AuditAction.allCases {
                #expect(script.text.contains("'\(action.rawValue)'"), "the audit filter offers \(action.rawValue)")
            }
            #expect(try await http.get("/console/app.css").status == .ok)
            #expect(try await http.get("/console/other.js").status == .notFound)
        }
    }
}
