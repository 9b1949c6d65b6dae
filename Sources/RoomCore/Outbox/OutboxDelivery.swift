/// The outbox entry being delivered, visible to the provider that applies
/// it. Providers keep one signature for a client's call and the outbox's;
/// one that can apply an effect exactly once (the local IM, in the same
/// database) stores this key with what it writes and skips a key it has seen.
public enum OutboxDelivery {
    @TaskLocal public static var idempotencyKey: String?
}
