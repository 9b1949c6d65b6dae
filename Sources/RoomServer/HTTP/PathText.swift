import Foundation
import Hummingbird

extension Parameters {
    /// A path segment as text: Hummingbird hands segments over still
    /// percent-encoded, so an account id of 21 non-ASCII characters arrived
    /// as 139 and was refused as too long, and a lookup by it could never
    /// match (schemathesis found it). Malformed escapes stay as sent.
    func text(_ name: String) throws -> String {
        let raw = try require(name)
        return raw.removingPercentEncoding ?? raw
    }
}
