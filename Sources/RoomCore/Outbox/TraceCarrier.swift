import Tracing

/// The active trace context as the W3C `traceparent` text (and back), for
/// what carries a trace across a queue: an outbox entry (#30, item 1). With
/// tracing off the instrument injects nothing and this is nil.
public enum TraceCarrier {
    public static func currentTraceParent() -> String? {
        headers().first { $0.0 == "traceparent" }?.1
    }

    /// A context whose parent is `traceParent` (a top-level one without it).
    public static func context(traceParent: String?) -> ServiceContext {
        var context = ServiceContext.topLevel
        if let traceParent {
            InstrumentationSystem.instrument.extract(["traceparent": traceParent], into: &context, using: DictionaryExtractor())
        }
        return context
    }
}

extension TraceCarrier {
    /// The current context's propagation headers (`traceparent`,
    /// `tracestate`) for an outgoing call; none with tracing off.
    public static func headers() -> [(String, String)] {
        guard let context = ServiceContext.current else { return [] }
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &carrier, using: DictionaryInjector())
        return carrier.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

struct DictionaryInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
}

struct DictionaryExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
}
