import AnalyticsHub

extension Vendor {
  /// The fields of a vendor's SDK requests that Tagscope knows and leaves out on purpose: transport
  /// metadata (when the batch was sent, a library's version, the request's options) that says
  /// nothing of the calls. Every other field a decoder does not carry into a record is reported as
  /// not understood (`sdk.field-not-understood`, `tagscope help listen`).
  public struct TransportFields: Sendable, Hashable {
    /// The vendor the fields are of.
    public let vendor: ProviderID
    /// The fields, by path from the request's root: `sentAt`, `batch[].sentAt` for a field of
    /// each element of the array `batch`.
    public let paths: [String]
    /// Why they are left out, for people.
    public let reason: String

    /// A vendor's transport fields.
    public init(_ vendor: ProviderID, _ paths: [String], reason: String) {
      self.vendor = vendor
      self.paths = paths
      self.reason = reason
    }

    /// The names of the fields directly under `level` (`""` for the root, `batch[]` for each
    /// element of `batch`).
    public func names(at level: String) -> Set<String> {
      Set(
        paths.compactMap { path in
          guard let cut = path.lastIndex(of: ".") else { return level.isEmpty ? path : nil }
          return path[..<cut] == level ? String(path[path.index(after: cut)...]) : nil
        })
    }

    /// Whether `path` (indices written `[3]`) is one of the fields or under one.
    public func contains(path: String) -> Bool {
      let general = Self.withoutIndices(path)
      return paths.contains { general == $0 || general.hasPrefix($0 + ".") || general.hasPrefix($0 + "[") }
    }

    /// `path` with each array index written `[]` (`batch[3].sentAt` → `batch[].sentAt`).
    public static func withoutIndices(_ path: String) -> String {
      var out = ""
      var inIndex = false
      for character in path {
        if character == "[" {
          inIndex = true
          out.append("[")
        } else if character == "]" {
          inIndex = false
          out.append("]")
        } else if !inIndex {
          out.append(character)
        }
      }
      return out
    }
  }

  /// The fields of its SDK requests it leaves out on purpose (``TransportFields``); none without
  /// SDK path.
  public var transportFields: TransportFields {
    TransportFields.all.first { $0.vendor == id } ?? TransportFields(id, [], reason: "")
  }
}

/// Each vendor's transport fields, one entry per vendor: read from its SDKs' sources.
extension Vendor.TransportFields {
  /// Every vendor's.
  static let all: [Vendor.TransportFields] = [
    .segment, .amplitude, .ga4, .posthog, .snowplow, .mparticle, .mixpanel, .adobe,
  ]

  /// Segment's batches: when the batch was sent (analytics-python `request.py`, analytics-swift's
  /// and analytics.js's batch uploads); each message carries its own times.
  public static let segment = Vendor.TransportFields(
    Vendor.segment.id, ["sentAt"], reason: "when the batch was sent; each message has its own timestamp")

  /// Amplitude's requests: when the SDK uploaded (Amplitude-Kotlin's and Amplitude-Swift's
  /// `client_upload_time`) and the request's options (`min_id_length`, read to check the ids as
  /// Amplitude does).
  public static let amplitude = Vendor.TransportFields(
    Vendor.amplitude.id, ["client_upload_time", "options"],
    reason: "when the SDK uploaded; the request's options (min_id_length is read to check ids)")

  /// PostHog's batches: when the batch was sent and whether it is a historical import
  /// (posthog-python `request.py`); posthog-js's form and GET requests: how `data` is encoded
  /// (`compression=base64`), the library's version `ver`, `ip` and the cache buster `_`.
  public static let posthog = Vendor.TransportFields(
    Vendor.posthog.id, ["sent_at", "historical_migration", "compression", "ver", "ip", "_"],
    reason: "when the batch was sent; whether it is a historical import; how data is encoded, the library's "
      + "version, whether to geolocate the address, the cache buster")

  /// Snowplow's POSTs: the schema of the `payload_data` envelope (snowplow-python-tracker
  /// `emitters.py`).
  public static let snowplow = Vendor.TransportFields(
    Vendor.snowplow.id, ["schema"], reason: "the schema of the payload_data envelope")

  /// mParticle's batches (mparticle-python-sdk `Batch`): the environment and schema version they
  /// are sent to, the request's id, when and from which address it was sent. Its mobile SDKs'
  /// batches (mParticle/mparticle-android-sdk @ eb2b4c8 `Constants.kt` `MessageKey`,
  /// mParticle/mparticle-apple-sdk @ 86fa647 `MPIConstants.m`, `Utils/MPApplication.m`,
  /// `Utils/MPMessageBuilder.m`, as its `IntegrationTests/wiremock-recordings` hold them): the
  /// batch's type `dt`, id `id`, creation time `ct` and API key `a`; the SDK's own state (its version
  /// `sdk`, opt-out status `oo`, upload interval `uitl`, session timeout `stl`, the lifetime value it
  /// tallies `ltv`, the server's cookies `ck`); the app's description beyond its name and package
  /// (`ai`: version, build, architecture, deployment target, install, upgrade and last-use dates,
  /// launch counts, environment, pirated flag, kit count) and the device's beyond its platform, model
  /// and ids (`di`: brand, product, name, build, manufacturer, OS version, screen, locale, time zone,
  /// jailbreak, architecture, tablet, ad-tracking and tracking-authorization status, carrier, radio);
  /// when each user identity was first set (`ui[].dfs`, `ui[].f`); and each message's bookkeeping
  /// (whether it was logged on the main thread `mt`, the view controller shown `vc`, the session's
  /// start `sct`, previous session `pid`, `pss`, `psl` and length so far `slx`, its mpids `smpids`,
  /// the message's mpid, the event counter `en`, an event's start `est` and length `el`, the launch's
  /// crash, finalization and interruption flags `sc`, `sf`, `nsi`). The web SDK's count of kits
  /// it was given (mParticle/mparticle-web-sdk @ b99ac81 `src/sdkToEventsApiConverter.ts`:
  /// `application_info.sideloaded_kits_count`, as the mobile SDKs' `ai.sideloaded_kits_count`).
  public static let mparticle = Vendor.TransportFields(
    Vendor.mparticle.id,
    [
      "environment", "schema_version", "source_request_id", "timestamp_unixtime_ms", "ip", "dt", "id", "ct",
      "a", "sdk", "oo", "uitl", "stl", "ltv", "ck", "ai.av", "ai.abn", "ai.bid", "ai.arc", "ai.tsv", "ai.bsv",
      "ai.ict", "ai.ud", "ai.lc", "ai.lcu", "ai.lud", "ai.env", "ai.pir", "ai.fi", "ai.ir",
      "ai.sideloaded_kits_count", "ai.asv", "ai.asb", "di.b", "di.p", "di.dn", "di.bid", "di.dma", "di.dosv",
      "di.dosvi", "di.dsh", "di.dsw", "di.dpi", "di.dc", "di.dlc", "di.dll", "di.tz", "di.tzn", "di.jb",
      "di.arc", "di.it", "di.lat", "di.idst", "di.atts", "di.attt", "di.nc", "di.nca", "di.mnc", "di.mcc",
      "di.dr", "ui[].dfs", "ui[].f", "msgs[].mt", "msgs[].vc", "msgs[].sct", "msgs[].pid", "msgs[].pss",
      "msgs[].psl", "msgs[].slx", "msgs[].smpids", "msgs[].mpid", "msgs[].en", "msgs[].est", "msgs[].el",
      "msgs[].sc", "msgs[].sf", "msgs[].nsi", "application_info.sideloaded_kits_count",
    ],
    reason:
      "the environment and schema version sent to; the request's id, type, time, address and key; the SDK's "
      + "version, opt-out status, upload interval, session timeout, lifetime value and cookies; the app's and "
      + "device's description beyond the name, package, platform, model and ids a record keeps; when each user "
      + "identity was first set (and the web SDK's kit count); each message's bookkeeping (thread, view controller, session and launch "
      + "state, event counter, an event's start and length)"
  )

  /// Mixpanel's messages: the SDK's own event and session bookkeeping beside the event
  /// (mixpanel-swift's `$mp_metadata`: `$mp_event_id`, `$mp_session_id`, `$mp_session_seq_id`);
  /// the ingestion API's request options mixpanel-js and mixpanel-python send beside `data`
  /// (`verbose=1` for a JSON answer, `ip=1` to geolocate the sender, the cache buster `_`), and the
  /// project's API key mixpanel-python's `Consumer` sends beside `data` to `/import` (`api_key`).
  public static let mixpanel = Vendor.TransportFields(
    Vendor.mixpanel.id, ["$mp_metadata", "verbose", "ip", "_", "api_key"],
    reason:
      "the SDK's event and session bookkeeping; the request's answer format, geolocation and cache buster; "
      + "the project's API key of /import requests")

  /// GA4's Measurement Protocol: how the validation server is to check the request (Measurement
  /// Protocol reference, `validation_behavior`) and the API secret of its query, which a record
  /// never keeps; gtag.js's hits (as amplitude/Amplitude-TypeScript's
  /// GA events forwarder reads them): the protocol version `v`, the measurement id `tid`, the tag's
  /// container hash `gtm`, the page load `_p` and the hit's counter `_s`.
  public static let ga4 = Vendor.TransportFields(
    Vendor.ga4.id, ["validation_behavior", "api_secret", "v", "tid", "gtm", "_p", "_s"],
    reason: "how the validation server checks the request; the API secret (never recorded); gtag's protocol "
      + "version, measurement id, "
      + "container hash, page load and hit counter")

  /// Adobe Analytics' hits: the request's own markers and encoding, as the mobile extension writes
  /// them (adobe/aepsdk-analytics-android @ 066c980e `AnalyticsConstants.kt`: the charset `ce`, the
  /// formatted local time `t`; the no-data-header flag `ndh` its hits open with, as in its
  /// `AnalyticsHitProcessorTests.kt`) and AppMeasurement for JavaScript
  /// (Adobe's data collection query parameters: the hit's begin and end markers `AQB`/`AQE`, the
  /// platform flag `pf`, the namespace `ns`, the fallback and supplemental ids `fid`/`sdid`, the
  /// Experience Cloud org `mcorgid`, the dynamic-variable prefix `D`, and the browser's screen `s`,
  /// colour depth `c`, JavaScript version `j`, Java `v`, cookies `k`, width `bw`, height `bh` and
  /// last response time `lrt`).
  public static let adobe = Vendor.TransportFields(
    Vendor.adobe.id,
    [
      "ndh", "ce", "t", "AQB", "AQE", "pf", "ns", "fid", "sdid", "mcorgid", "D", "s", "c", "j", "v", "k",
      "bw",
      "bh", "lrt",
    ],
    reason:
      "the hit's markers, charset, local time and namespace; the library's ids and org; the browser's screen and settings"
  )
}
