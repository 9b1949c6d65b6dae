import HTTPTypes
import Hummingbird

/// `/console`: the operators' and tenant admins' web console, served by
/// Roomkeeper itself as four static files. It holds no data and needs no
/// key to load; everything it shows comes from the admin API with the key
/// the user signs in with. The policy allows scripts and styles from this
/// origin only: no inline script can run, whatever a room's name holds.
struct ConsoleRoutes: Sendable {
    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'", "connect-src 'self'",
        "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    func register(on router: Router<RoomRequestContext>) {
        router.get("console") { _, _ in Self.file(ConsolePage.html, type: "text/html; charset=utf-8") }
        router.get("console/charts.js") { _, _ in Self.file(ConsoleCharts.js, type: "text/javascript; charset=utf-8") }
        router.get("console/app.js") { _, _ in Self.file(ConsoleScript.js, type: "text/javascript; charset=utf-8") }
        router.get("console/app.css") { _, _ in Self.file(ConsoleStyle.css, type: "text/css; charset=utf-8") }
    }

    static func file(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[.cacheControl] = "no-cache"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
