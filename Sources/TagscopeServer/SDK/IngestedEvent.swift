import AnalyticsHub
import Foundation

/// One analytics call an SDK endpoint received, decoded into typed values: the intermediate form
/// between an SDK's HTTP payload and a recording ``Record``.
struct IngestedEvent: Sendable, Hashable {
  /// The provider id of the SDK that sent it (`segment`, `amplitude`, …).
  var provider: String
  /// What the call is: `screen`, `identify` or `event`.
  var kind: TagKind
  /// The event, screen or user-operation name.
  var name: String
  /// The event's properties (traits for `identify`).
  var properties: Properties
  /// When the SDK says the event happened, if it says.
  var time: Date?
  /// Who sent it: device, app, user and session as the payload names them.
  var identity: DeviceIdentity
  /// The call exactly as received: SDK method, name and every field.
  var call: CallDescription
  /// The provider's documented rules the payload breaks (GA4 validation, for example).
  var violations: [RuleViolation] = []
  /// The message as received, as JSON or query text, for the detail view.
  var raw: String
  /// Whether the record keeps ``raw``: `false` where the call (its method, name and parameters)
  /// and ``credentials`` hold the message whole, so `raw` would only repeat it — escaped, a
  /// third copy of a large event's payload on its line; the record's `raw` is then empty
  /// (``RecordMaker``).
  var recordsRaw = true
  /// Fields that identify the sender but are not part of the call (write key, API key).
  var credentials = Properties()
  /// What the decoder tells about the call besides it (a Firebase log entry's origin, the
  /// parameters the SDK added, the line it was read on), kept in the output beside the call.
  var annotations = Properties()
  /// The id the SDK gives the message, the same each time it sends it again (Segment's and
  /// RudderStack's `messageId`, Amplitude's `insert_id`, PostHog's `uuid`, Mixpanel's
  /// `$insert_id`, Snowplow's `eid`, mParticle's `source_message_id` or its mobile SDK's `id`):
  /// what tells an SDK's retry from a second call (``RetryMemory``).
  var messageID: String? = nil
}
