-- Traces (#30, item 1): the W3C trace context of the request that queued
-- an outbox entry, so its delivery (and a webhook's `traceparent`) joins
-- that request's trace. NULL while tracing is off.
ALTER TABLE outbox ADD COLUMN trace_parent text;
