/// The limits each vendor documents for one request and one event on the endpoints `listen`
/// serves, and the limits that exist nowhere else in code (the others are named in the table).
///
/// Past a limit a request gets the vendor's own status and error shape and nothing of it is
/// recorded (the SDK keeps its events), except on Mixpanel's `/import`, which imports the events
/// that pass: `listen` records those. The refusal is counted under its ``RejectionReason`` and
/// reported as a problem. Sizes are of the JSON as received (after `Content-Encoding`), an
/// event's being its object's bytes. Past every vendor's limits, ``EventSizeLimit`` still holds
/// one event to 4 MiB.
///
/// | Endpoint | Limit | Past it | Where |
/// |---|---|---|---|
/// | Segment `/v1/track`, `/v1/t`… | 32 KB per call | `400` `request_too_large` | `SegmentEndpoint.messageLimit` |
/// | Segment `/v1/batch`, `/v1/b` | 500 KB per request, 32 KB per event | `400` `request_too_large` | `SegmentEndpoint.batchLimit` |
/// | Segment `/v1/batch`, `/v1/b` | 2,500 events per request | `200`, the events dropped | ``segmentBatchEvents`` |
/// | RudderStack `/v1/batch`, `/beacon/v1/batch` | 4 MB per request, 32 KB per event | `400` `request_too_large` | `SegmentEndpoint.rudderStackBatchLimit` |
/// | Amplitude `/2/httpapi` | 1 MB per request, 2,000 events | `413` `code` `error` | `AmplitudeEndpoint` |
/// | Amplitude `/batch` | 20 MB per request, 2,000 events | `413` `code` `error` | `AmplitudeEndpoint` |
/// | Mixpanel `/track`, `/engage`, `/groups` | 1 MB per request, 2,000 messages, 1 MB per event | `400` `status` `error` | ``mixpanelEventBytes`` |
/// | Mixpanel `/import` | 10 MB per request, 2,000 events, 1 MB per event | `400` with `failed_records`, the other events imported | ``mixpanelEventBytes`` |
/// | PostHog `/batch`, `/capture`, `/e`, `/i/v0/e` | 20 MB per request, 1 MB per event | `413` | ``postHogEventBytes`` |
/// | GA4 `/mp/collect`, `/debug/mp/collect` | 130 kB per request, 25 events | `413`; `204` / `EXCEEDED_MAX_ENTITIES` | `GA4Endpoint` |
/// | mParticle `/v2/events`, `/v2/bulkevents` | 3 MB per request, 100 batches per bulk request | `413` / `400` | `MParticleEndpoint` |
/// | Snowplow `tp2`, `/i` | 1 MB per request | `413` | `SnowplowEndpoint` |
///
/// Sources, as read in November 2026:
/// - Segment: https://segment.com/docs/connections/sources/catalog/libraries/server/http-api/
///   (Max request size; Errors: "each batch request can only have up to 2500 events … Segment
///   returns a `200` response but rejects the event"); analytics-python `consumer.py`
///   (`MAX_MSG_SIZE = 32 << 10`, `BATCH_SIZE_LIMIT = 475000`).
/// - Amplitude: https://amplitude.com/docs/apis/analytics/http-v2 (upload limits),
///   https://amplitude.com/docs/apis/analytics/batch-event-upload ("must not exceed 20MB"),
///   https://amplitude.com/docs/apis/analytics/http-api-batching-retries (2,000 events a request);
///   no per-event limit is documented: the request's bounds the event.
/// - Mixpanel: https://developer.mixpanel.com/reference/track-event (Limits: "Must be smaller
///   than 1MB of uncompressed JSON"), https://docs.mixpanel.com/troubleshooting/errors/413-payload-too-large
///   (10MB a request, 2,000 events, an oversized event "reported in failed_records on a 400"),
///   https://docs.mixpanel.com/troubleshooting/errors/400-bad-request ("Mixpanel still ingests
///   the events that passed, so a 400 is a partial success").
/// - PostHog: https://posthog.com/docs/data/ingestion-warnings ("PostHog discards events
///   exceeding 1 megabyte"); capture's `CaptureError::EventTooBig` is answered `413`
///   (PostHog/posthog `rust/capture/src/api.rs`); posthog-python drops events over 900 KiB itself.
/// - GA4: https://developers.google.com/analytics/devguides/collection/protocol/ga4/sending-events
///   (Limitations: 25 events, 130kB post body).
/// - mParticle: https://docs.mparticle.com/developers/apis/http/ and
///   https://docs.mparticle.com/guides/default-service-limits/ — per-event limits (names 256,
///   attribute values 4,096 characters) are truncated server-side, not refused; the SDKs' 128 KB
///   batch is split by the SDK.
/// - Snowplow: the collector's `maxBytes` (1 MB by default); an event over it becomes a
///   size-violation bad row while the collector still answers `200`, so no event limit is refused.
/// - RudderStack speaks Segment's API on the same paths: https://www.rudderstack.com/docs/api/http-api/
///   documents 32 KB a call and 4 MB a batch (rudder-sdk-python `consumer.py` batches up to
///   `BATCH_SIZE_LIMIT = 4 << 10 << 10`), and no bound on the events of a batch; a batch whose
///   every message is a RudderStack SDK's (``SegmentEndpoint/isRudderStack(_:)``) gets its limits,
///   any other Segment's.
enum VendorLimits {
  /// Mixpanel's bound on one event or profile update: 1 MB of JSON.
  static let mixpanelEventBytes = 1024 * 1024
  /// PostHog's bound on one event: 1 MB of JSON.
  static let postHogEventBytes = 1024 * 1024
  /// Segment's bound on the events of one batch request.
  static let segmentBatchEvents = 2_500
}
