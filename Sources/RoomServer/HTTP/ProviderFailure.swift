import RoomCore

/// An IM or media vendor's failure met while answering a request: the admin
/// API says so (503 `provider_unavailable` when it did not answer, 502
/// `provider_refused` when it refused) and a client route says so in its
/// wire format; neither is an internal error.
struct ProviderFailure: Error {
    let error: any Error
    let service: String
    let transient: Bool

    init?(_ error: any Error) {
        switch error {
        case let im as IMError:
            self.init(error: im, service: "IM", transient: im.isTransient)
        case let media as MediaError:
            let transient = switch media { case .timeout, .unavailable: true; case .rejected: false }
            self.init(error: media, service: "media", transient: transient)
        default:
            return nil
        }
    }

    private init(error: any Error, service: String, transient: Bool) {
        self.error = error
        self.service = service
        self.transient = transient
    }

    var problem: Problem {
        transient
            ? Problem(.serviceUnavailable, code: "provider_unavailable", detail: "the \(service) provider did not answer; nothing was done; try again")
            : Problem(.badGateway, code: "provider_refused", detail: "the \(service) provider refused: \(error)")
    }
}
