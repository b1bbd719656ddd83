extension Vendor {
  /// How `tagscope export --har` rebuilds the request an SDK sent for one of the vendor's wire
  /// records (a recording keeps the SDK's messages, its credential and the vendor's answer, not the
  /// request): the host and path the SDK sends to and how its body is written, read from the SDK.
  public struct Rebuild: Sendable, Hashable {
    /// The call method of the records it rebuilds (`track`); `nil` for any.
    public let method: String?
    /// The field a record's output must keep for this rebuild to be its own (GA4's
    /// `validation_server`, kept by the validation server's records; FPTI's `partner_client_id`,
    /// kept by PayPal's SDKs' records); `nil` for any record.
    public let marker: String?
    /// The request's URL without its query: the vendor's own host and the SDK's path.
    public let url: String
    /// The body's content type.
    public let mimeType: String
    /// How the request is written from the record.
    public let body: RebuildBody
    /// What the entry's `comment` says of it (`its messages in one batch, with its write key`).
    public let summary: String

    /// A rebuild of the records whose call is `method` (any when `nil`).
    public init(
      method: String? = nil, marker: String? = nil, url: String, mimeType: String, body: RebuildBody,
      summary: String
    ) {
      self.method = method
      self.marker = marker
      self.url = url
      self.mimeType = mimeType
      self.body = body
      self.summary = summary
    }

    /// No rebuild: the records do not keep what the request needs, for `reason` (said for each
    /// record the export leaves out).
    public static func notRebuilt(_ reason: String) -> Rebuild {
      Rebuild(url: "", mimeType: "", body: .notRebuilt(reason: reason), summary: "")
    }
  }

  /// How a rebuilt request's body is written from its record.
  public enum RebuildBody: Sendable, Hashable {
    /// A JSON object: the record's messages (its calls' parameters) as an array under `messages`,
    /// and each of `credentials` the record keeps under its own name (`writeKey`).
    case jsonBatch(messages: String, credentials: [String])
    /// A form whose `field` is the call as one event: `event` its name, `properties` its
    /// parameters after the `credential` the record keeps (Mixpanel's `data=`); the message the
    /// record's `raw` keeps whole when it holds more than these.
    case formEvent(field: String, credential: String)
    /// A form whose `field` is the call's parameters as they are (Mixpanel's `/engage`).
    case formMessage(field: String)
    /// The hit the record's `raw` keeps: its query's fields, then the body after a newline
    /// (gtag.js); the records of one hit share one request.
    case keptHit
    /// Each event's own payload the record's `raw` keeps, as one element of `data` in a JSON
    /// object named by `schema` (Snowplow's POST), or as the query of a GET to `getPath` at the
    /// same host when `raw` is the query it was read from.
    case keptPayloadData(schema: String, getPath: String)
    /// A JSON object whose `array` holds the call as one event: `name` its name, `data` its
    /// parameters then those of the object its output keeps under `added`, each key its `typed`
    /// object types written `<type>:<key>`; each of `query` its output keeps in the URL's query
    /// (Piano Analytics' `/event`). A record that kept fields its decoder did not read is not
    /// rebuilt.
    case jsonEvent(array: String, name: String, data: String, added: String, typed: String, query: [String])
    /// A JSON object nesting under each of `path` the call as one flat object: `name` its name,
    /// its parameters, the fields of each object its output keeps under `added`, then each of
    /// `fields` its output keeps (PayPal FPTI's `{"events":{"event_params":{…}}}`). A record that
    /// kept fields its decoder did not read, or any of `unrebuilt`, is not rebuilt.
    case flatEvent(path: [String], name: String, added: [String], fields: [String], unrebuilt: [String])
    /// The records of one request gathered back into it (Braze's `/api/v3/data`): the request's
    /// own fields its first record keeps under `request`, then each event record's message (what
    /// its call holds put back in its `data`) in `events`, each attribute record in an object of
    /// `attributes` (custom ones under `custom`). The records after the first keep no `request`:
    /// they join the request before them. The `credential` its output keeps goes in `header` when
    /// the request's fields lack it. An event's own time is at `eventTime`.
    case gatheredRequest(
      request: String, events: String, attributes: String, custom: String, credential: String, header: String,
      eventTime: [String])
    /// The records of one request gathered back into it (Adobe Edge's `/ee/v1/interact`): the
    /// request's own fields its first record keeps under `request`, then each record's call
    /// parameters as one object of `events`, in the order of its `index`; each `query` field
    /// (record field: query name) its first record keeps in the URL's query. An event's own time
    /// is at `eventTime`. A first record keeps under `path` the request's path when it is not the
    /// URL's (a location hint, the Server API's `/ee/v2/…`), written as the first of `forms` whose
    /// path it ends with says; one that keeps none must keep `required` in its `request` (`nil`:
    /// none is).
    case gatheredEvents(
      request: String, required: String?, events: String, index: String, query: [QueryField],
      eventTime: [String], path: String, forms: [PathForm])
    /// The records of one request gathered back into it (GA4's Measurement Protocol): the request
    /// each record's `raw` keeps with only its own event, its event in `events` after those of
    /// the records before it, in the order of its `index` (absent for the first); each `query`
    /// field its first record keeps in the URL's query. An event's own time is at `eventTime` in
    /// the event, or in the request for all of them.
    case gatheredBodies(events: String, index: String, query: [QueryField], eventTime: [String])
    /// A form hit (Adobe Analytics'): the variables its output keeps under `variables` and,
    /// nested in `c.` levels at each key's dots, the call's parameters and the SDK's keys its
    /// output keeps under `contextData`; posted to the URL, the report suites its output keeps
    /// under `suites`, the path's mode its output keeps under `mode` (`10`; `0` when it keeps
    /// none), then `path`. A record that kept unread fields or problems is not rebuilt.
    case contextDataHit(variables: String, contextData: String, suites: String, mode: String, path: String)
    /// The records of one request gathered back into it (mParticle's batches): each batch's own
    /// fields its first record keeps under `batch`, then its events, in `events` each record's
    /// call parameters or, in `messages`, each record's `raw` when it keeps one (the mobile SDKs'
    /// short-key messages). Sent to the path the request's first record keeps under `path`, at
    /// the origin of the first of `hosts` whose part (`KEY` the record's `credential`) the path
    /// holds, else the URL's. A path ending with `bulkSuffix` takes an array of batches; a path
    /// that does not hold the credential takes it as its Basic auth user, with an empty secret
    /// (a record never keeps the secret). An event's own time is at `eventTime` in its call.
    case gatheredBatches(
      batch: String, path: String, events: String, messages: String, bulkSuffix: String, credential: String,
      hosts: [PathHost], eventTime: [String])
    /// The records of one upload gathered back into it (Firebase's `app-measurement.com/a`): a
    /// protobuf batch of bundles, each of the context its records keep, with their events and
    /// user properties at the places they keep under `place` (`bundle 1 event 2`), gzip'd as the
    /// SDKs send it (`Content-Encoding: gzip`).
    case gatheredUpload(place: String)
    /// The request's own fields its record keeps under `request`, then the call's parameters, as
    /// one JSON object (Braze's content card, feature flag and template requests).
    case keptRequest(request: String)
    /// None: the records do not keep what the request needs, for `reason` (said for each record).
    case notRebuilt(reason: String)
  }
}

extension Vendor {
  /// A field a record keeps (`config_id`) written in a rebuilt request's query as `name` (`configId`).
  public struct QueryField: Sendable, Hashable {
    /// The record's field.
    public let field: String
    /// The query's name.
    public let name: String

    /// `field` written as `name`.
    public init(_ field: String, as name: String) {
      self.field = field
      self.name = name
    }
  }
}

extension Vendor {
  /// How a gathered request sent to a path other than its rebuild's URL's is written (Edge's
  /// Server API `/ee/v2/interact`: its one event under `event`, its datastream as `datastreamId`).
  public struct PathForm: Sendable, Hashable {
    /// The end of the paths it is for (`/v2/interact`).
    public let pathSuffix: String
    /// The key of the request's events: an array of them, or its one event when `single`.
    public let events: String
    /// Whether the request holds one event, not an array.
    public let single: Bool
    /// The record fields written in the URL's query, and their names.
    public let query: [QueryField]

    /// The form of the paths ending with `pathSuffix`.
    public init(pathSuffix: String, events: String, single: Bool, query: [QueryField]) {
      self.pathSuffix = pathSuffix
      self.events = events
      self.single = single
      self.query = query
    }
  }
}

extension Vendor {
  /// The origin a rebuilt request whose path holds `pathPart` is sent to (mParticle's web SDK's
  /// `/JS/` paths at `jssdks.mparticle.com`).
  public struct PathHost: Sendable, Hashable {
    /// What the path holds (`/JS/`; `KEY` stands for the record's credential).
    public let pathPart: String
    /// The scheme and host (`https://jssdks.mparticle.com`).
    public let origin: String

    /// Paths holding `pathPart` go to `origin`.
    public init(_ pathPart: String, at origin: String) {
      self.pathPart = pathPart
      self.origin = origin
    }
  }
}

extension Vendors {
  /// The vendors whose wire records `tagscope export --har` rebuilds, in registry order.
  public static let rebuilt: [Vendor] = all.filter { vendor in
    vendor.rebuild.contains { rebuild in
      if case .notRebuilt = rebuild.body { return false }
      return true
    }
  }
}
