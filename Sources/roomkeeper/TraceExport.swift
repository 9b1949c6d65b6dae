import Logging
import OTel
import ServiceLifecycle

/// Traces over OTLP/HTTP (#30, item 1), off by default: set
/// `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) to
/// turn them on; the standard variables configure the rest
/// (`OTEL_TRACES_SAMPLER`/`_ARG` for sampling, `OTEL_SERVICE_NAME`,
/// `OTEL_BSP_SCHEDULE_DELAY`, `OTEL_SDK_DISABLED=true` to turn them off).
/// Only traces: logs stay on standard output (with the trace and span ids
/// of the request in every line) and metrics on /metrics.
enum TraceExport {
    static func isOn(_ env: [String: String]) -> Bool {
        guard env["OTEL_SDK_DISABLED"]?.lowercased() != "true" else { return false }
        return ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"].contains { !(env[$0] ?? "").isEmpty }
    }

    /// Bootstraps the tracer, once per process; the service it returns
    /// exports the spans and flushes them when the server stops.
    static func bootstrap() throws -> any Service {
        var configuration = OTel.Configuration.default
        configuration.serviceName = "roomkeeper"
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.diagnosticLogLevel = .warning
        return try OTel.bootstrap(configuration: configuration)
    }

    /// Standard output, each line with the active span's trace and span ids.
    static func bootstrapLogging() {
        LoggingSystem.bootstrap({ label, provider in StreamLogHandler.standardOutput(label: label, metadataProvider: provider) },
                               metadataProvider: OTel.makeLoggingMetadataProvider())
    }
}
