import Foundation

/// One of a tenant's webhook endpoints, from `[webhooks.<name>]` in its file:
///
///     [webhooks.backend]
///     url = "https://example.com/roomkeeper"
///     secretEnv = "ACME_WEBHOOK_SECRET"   # one or more whsec_ secrets, space-separated
///     events = ["room.created", "member.joined", "room.closed"]   # or ["*"]
///
/// Every secret in the variable signs each delivery, so a secret is rotated
/// by listing the new one beside the old, then dropping the old one once the
/// receiver has moved.
public struct WebhookEndpoint: Sendable {
    /// The table's key: stable, names the endpoint in the admin API and orders its lane.
    public let name: String
    public let url: String
    public let secrets: [StandardWebhooks.Secret]
    /// Event types wanted; "*" wants all.
    public let events: Set<String>
    /// Longest one delivery may wait for the receiver's answer.
    public let timeoutSeconds: Int

    public init(name: String, url: String, secrets: [StandardWebhooks.Secret], events: Set<String>, timeoutSeconds: Int = 10) {
        self.name = name
        self.url = url
        self.secrets = secrets
        self.events = events
        self.timeoutSeconds = timeoutSeconds
    }

    public func wants(_ type: String) -> Bool {
        type == WebhookEventTypes.test || events.contains("*") || events.contains(type)
    }

    /// The outbox lane of this endpoint's deliveries (per-room order within it).
    public var lane: String { "webhook:" + name }

    /// The operator's endpoint (from the server's environment, not a tenant
    /// file): told of every tenant's dead entries. Its name cannot be a
    /// tenant endpoint's.
    public static let operatorName = "@operator"

    /// The operator's endpoint, or why the settings cannot make one.
    public static func operatorEndpoint(url: String, secrets text: String) -> Result<WebhookEndpoint, ConfigProblem> {
        if let problem = urlProblem(url) { return .failure(ConfigProblem(description: problem)) }
        let secrets = text.split(whereSeparator: \.isWhitespace).map { StandardWebhooks.Secret(String($0)) }
        guard !secrets.isEmpty, secrets.allSatisfy({ $0 != nil }) else {
            return .failure(ConfigProblem(description: "the secrets must be one or more whsec_ secrets, space-separated"))
        }
        return .success(WebhookEndpoint(name: operatorName, url: url, secrets: secrets.compactMap { $0 }, events: [WebhookEventTypes.outboxDead]))
    }

    public struct ConfigProblem: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Why `url` cannot receive webhooks, or nil.
    static func urlProblem(_ url: String) -> String? {
        let parsed = URLComponents(string: url)
        let usable = (parsed?.scheme == "https" || parsed?.scheme == "http") && !(parsed?.host ?? "").isEmpty
            && parsed?.user == nil && parsed?.password == nil
        return usable ? nil : "must be an http or https URL with a host and no credentials"
    }

    public static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.count) && name.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }

    /// Reads `[webhooks]`; problems are reported on the reader. `known` are
    /// the event types this tenant's configuration can produce.
    static func read(_ section: SettingsReader, known: Set<String>, addresses: WebhookAddressPolicy) -> [WebhookEndpoint] {
        section.keys.compactMap { name in
            guard isValidName(name) else {
                section.skip(name)
                section.report(name, "endpoint names are 1-64 characters of a-z, 0-9, - and _")
                return nil
            }
            let table = section.table(name)
            let url = table.string("url", default: "")
            if let problem = urlProblem(url) {
                table.report("url", problem)
            } else if let host = URLComponents(string: url)?.host, let refusal = addresses.refusal(host: host) {
                table.report("url", "\(host) \(refusal)")
            }
            var secrets: [StandardWebhooks.Secret] = []
            if let text = table.secret("secret") {
                for word in text.split(whereSeparator: \.isWhitespace) {
                    guard let secret = StandardWebhooks.Secret(String(word)) else {
                        // Never echo the value: it is a secret, even when malformed.
                        table.report("secretEnv", "every secret in the variable must be \"whsec_\" and base64 of 24-64 bytes (`roomkeeper webhooks new-secret` prints one)")
                        continue
                    }
                    secrets.append(secret)
                }
            }
            let events = table.stringArray("events", default: ["*"])
            for (index, event) in events.enumerated() where event != "*" && !known.contains(event) {
                table.report("events[\(index)]", "unknown event type \"\(event)\" (known: \(known.sorted().joined(separator: ", ")), or \"*\")")
            }
            if events.isEmpty { table.report("events", "must name at least one event type, or \"*\"") }
            let timeout = table.duration("timeout", default: 10, in: 1...60)
            return WebhookEndpoint(name: name, url: url, secrets: secrets, events: Set(events), timeoutSeconds: timeout)
        }
    }
}
