import RoomCore

extension Roomkeeper {
    /// The admin API's contract exactly as `GET /admin/v1/openapi.json`
    /// serves it for `registry`'s plugins, without a database or a server:
    /// what `roomkeeper contract` prints and the typed clients are made from (#44).
    public static func adminContract(registry: PluginRegistry) -> String {
        AdminContract.document(plugins: registry.plugins)
    }
}
