import Foundation
import Hummingbird

/// The request context of every route: Hummingbird's core storage plus who
/// the admin API caller is, once authenticated.
public struct RoomRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var principal: AdminPrincipal?
    /// What the admin key may do (#44): every scope for the operator's and
    /// a tenant file's keys, its own for a key made through the API.
    public var adminScopes: Set<AdminScope> = []
    /// Who the admin caller is, as the audit log names it.
    public var adminActor = ""
    /// The TCP peer's IP address (a proxy's, behind one).
    public let peerAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        principal = nil
        peerAddress = source.channel.remoteAddress?.ipAddress
    }

    /// The admin API speaks ISO 8601 dates.
    public var responseEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public var maxUploadSize: Int { 1 << 20 }
}
