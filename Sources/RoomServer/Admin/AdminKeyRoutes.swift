import Foundation
import Hummingbird
import RoomCore

/// Admin keys as objects (#44): `POST …/keys` makes one (a label naming who
/// holds it, its scopes, an optional expiry) and answers the key once;
/// `GET …/keys` lists them without the key; `DELETE …/keys/{keyId}` revokes,
/// refused at once on every instance (each request reads its key's row).
/// A key grants at most the scopes of the key that makes it, and revokes
/// only keys whose scopes it holds all of.
extension AdminAPI {
    struct CreateKeyBody: AdminBody {
        static let schema = "NewAdminKey"
        let label: String?
        let scopes: [String]?
        let expiresInSeconds: Int?
    }

    /// Five years and a day at most: a longer key is one without an end.
    static let longestKey = 5 * 366 * 86_400

    static func keyLabel(_ text: String?) throws -> String {
        guard let text else { throw Problem.invalid("label", "is required") }
        let allowed = text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || " ._@-".unicodeScalars.contains($0)) }
        guard (1...64).contains(text.count), allowed else {
            throw Problem.invalid("label", "must be 1-64 letters, digits, spaces or . _ @ -")
        }
        return text
    }

    static func keyScopes(_ names: [String]?, grantable: Set<AdminScope>) throws -> [AdminScope] {
        guard let names, !names.isEmpty else { throw Problem.invalid("scopes", "must name at least one scope") }
        // As many as there are scopes: the contract's maxItems.
        guard names.count <= AdminScope.allCases.count else { throw Problem.invalid("scopes", "must name at most \(AdminScope.allCases.count) scopes") }
        var scopes: [AdminScope] = []
        for (index, name) in names.enumerated() {
            guard let scope = AdminScope(rawValue: name) else {
                throw Problem.invalid("scopes[\(index)]", "must be one of \(AdminScope.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard grantable.contains(scope) else {
                throw Problem(.forbidden, code: "forbidden", detail: "this key may not grant the scope \(scope.rawValue) (scopes[\(index)]): it does not hold it")
            }
            scopes.append(scope)
        }
        return Array(Set(scopes)).sorted()
    }

    /// `GET /admin/v1/me`: who the key is and its scopes (the console shows
    /// them, and offers only what they allow).
    func registerMeRoute(_ admin: RouterGroup<RoomRequestContext>) {
        admin.get("me", use: showMe)
    }

    @Sendable func showMe(_ request: Request, context: RoomRequestContext) async throws -> MeDTO {
        let tenant: String? = if case .tenant(let id)? = context.principal { id } else { nil }
        return MeDTO(actor: context.adminActor, tenant: tenant, scopes: context.adminScopes.sorted().map(\.rawValue))
    }

    func registerKeyRoutes(_ tenantGroup: RouterGroup<RoomRequestContext>) {
        tenantGroup.post("keys", use: createKey)
        tenantGroup.get("keys", use: listKeys)
        tenantGroup.delete("keys/:keyId", use: revokeKey)
    }

    @Sendable func createKey(_ request: Request, context: RoomRequestContext) async throws -> EditedResponse<AdminKeyDTO> {
        let tenant = try context.authorizedTenant(tenants)
        let body = try await request.decodeJSON(CreateKeyBody.self, context: context)
        let label = try Self.keyLabel(body.label)
        let scopes = try Self.keyScopes(body.scopes, grantable: context.adminScopes)
        if let seconds = body.expiresInSeconds, !(60...Self.longestKey).contains(seconds) {
            throw Problem.invalid("expiresInSeconds", "must be between 60 and \(Self.longestKey) seconds")
        }
        let now = services.clock.now()
        let made = try await AdminKeyStore(database: services.database)
            .create(tenant, label: label, scopes: scopes.map(\.rawValue), expiresAt: body.expiresInSeconds.map { now.addingTimeInterval(TimeInterval($0)) },
                    now: now, audited: AuditStamp(by: .admin, in: tenant))
        return EditedResponse(status: .created, headers: [.location: "/admin/v1/tenants/\(tenant.id)/keys/\(made.key.id)"],
                              response: AdminKeyDTO(made.key, secret: made.secret))
    }

    @Sendable func listKeys(_ request: Request, context: RoomRequestContext) async throws -> Page<AdminKeyDTO> {
        let tenant = try context.authorizedTenant(tenants)
        return Page(items: try await AdminKeyStore(database: services.database).list(tenant.id).map { AdminKeyDTO($0) }, nextCursor: nil)
    }

    @Sendable func revokeKey(_ request: Request, context: RoomRequestContext) async throws -> AdminKeyDTO {
        let tenant = try context.authorizedTenant(tenants)
        let id = try context.parameters.text("keyId")
        guard TextRules.fits(id, 1...64) else { throw Problem.notFound("no key \(id)") }
        do {
            guard let key = try await AdminKeyStore(database: services.database)
                .revoke(tenant, id: id, revokerScopes: Set(context.adminScopes.map(\.rawValue)), now: services.clock.now(),
                        audited: AuditStamp(by: .admin, in: tenant)) else {
                throw Problem.notFound("no key \(id)")
            }
            return AdminKeyDTO(key)
        } catch let beyond as AdminKeyStore.BeyondRevokerScopes {
            throw Problem(.forbidden, code: "forbidden",
                          detail: "this key may not revoke key \(id): it holds \(beyond.scopes.joined(separator: ", ")), which this key does not")
        }
    }
}

/// A key as the admin API shows it; `key` only in the answer that made it.
struct AdminKeyDTO: ResponseEncodable {
    let id: String
    let label: String
    let scopes: [String]
    let createdAt: Date
    let createdBy: String
    let expiresAt: Date?
    let revokedAt: Date?
    let lastUsedAt: Date?
    let key: String?

    init(_ key: AdminKeyStore.Key, secret: String? = nil) {
        id = key.id
        label = key.label
        scopes = key.scopes
        createdAt = key.createdAt
        createdBy = key.createdBy
        expiresAt = key.expiresAt
        revokedAt = key.revokedAt
        lastUsedAt = key.lastUsedAt
        self.key = secret
    }
}

/// Who is calling: `operator`, `tenant-admin` (a tenant file's key) or `key:<id> (<label>)`.
struct MeDTO: ResponseEncodable {
    let actor: String
    let tenant: String?
    let scopes: [String]
}
