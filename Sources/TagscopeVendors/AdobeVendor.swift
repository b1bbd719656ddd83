extension Vendor {
  /// Adobe Analytics: the in-app provider (codegen writes its calls as `CallDescription`s), the
  /// Adobe Experience Platform Edge extension's requests and the Analytics mobile extension's hits.
  ///
  /// Sources: adobe/aepsdk-edge-android @ f607561cf7301e22deaabdcdf838844127e52186 (`EdgeEndpoint`,
  /// `EdgeNetworkService`, `RequestBuilder`), adobe/aepsdk-analytics-android @
  /// c9e67af6147c1d2b215e8dd54c3bc6eb6abd50a5 (`AnalyticsHitProcessor`, `ContextDataUtil`);
  /// Adobe's "Use an Analytics tracking server" page (a third-party tracking server ends in
  /// `sc.omtrdc.net`; first-party ones are the customer's CNAMEs).
  public static let adobe = Vendor(
    id: "adobe", name: "Adobe Analytics", aliases: ["adobe-analytics"], paths: [.inApp, .sdk],
    endpoints: [
      // Every Edge path reads by `AdobeEdgePath`'s grammar (`/ee` or `/ee-pre-prd`, a location
      // hint, Media Edge's `va`, `v<digits>`, the operation). Also Media Edge's `/ee/va/v1/<event>`
      // (aepsdk-edge-android `EdgeEndpoint` with the request's own path, `EdgePathOverwriteTests`),
      // read as interact; another Edge version or operation is refused and reported with its path
      // (`AdobeEdgeEndpoint`), never guessed.
      Endpoint(
        "/ee/v1/interact", "Adobe Experience Platform Edge: the mobile SDK's events (also /ee/HINT/v1/…)",
        .adobeEdge, .adobeEdge(collect: false)),
      Endpoint(
        "/ee/v1/collect", "Adobe Experience Platform Edge: collect (no answer)", .adobeEdge,
        .adobeEdge(collect: true)),
      // `EdgeNetworkService.RequestType.CONSENT` ("privacy/set-consent", `EdgeConsentUpdate`):
      // recorded as the hub's consent decision for provider adobe.
      Endpoint(
        "/ee/v1/privacy/set-consent", "Adobe Experience Platform Edge: consent (collect y/n)", .adobeEdge,
        .adobeEdge(collect: false)),
      // The Web SDK's `getIdentity` (adobe/alloy `createGetIdentity`): recorded, not judged.
      Endpoint(
        "/ee/v1/identity/acquire", "Adobe Experience Platform Edge: the Web SDK's identity request (ECID)",
        .adobeEdge, .adobeEdge(collect: false)),
      // The Edge Network Server API (AdobeDocs/data-collection-apis `static/api-reference.yaml` @
      // 03788395c2c6971dd4706c39cd13e192191702b5): server-to-server, authenticated, on
      // `server.adobedc.net` (add it with --intercept) or edge.adobedc.net; one `event` to interact, `events` of many users
      // to collect. No mobile or Web SDK source sends them.
      Endpoint(
        "/ee/v2/interact", "Adobe Edge Network Server API: one event", .adobeEdgeServer,
        .adobeEdge(collect: false)),
      Endpoint(
        "/ee/v2/collect", "Adobe Edge Network Server API: events (202, no handles)", .adobeEdgeServer,
        .adobeEdge(collect: true)),
      Endpoint(
        "/b/ss/RSID/0/VERSION/sRANDOM", "Adobe Analytics mobile extension: hits", .adobeHit, .adobeAnalytics),
    ],
    messages: MessageFields(
      messageID: [MessageIDPath("xdm._id", method: "sendEvent")], properties: .parameters,
      trackMethod: "trackAction"),
    identity: [
      IdentityFields(
        form: "edge",
        root:
          "the Edge request's fields; authenticatedIdentity the first identityMap entry (not ECID) authenticated",
        user: ["authenticatedIdentity.id"], device: ["xdm.identityMap.ECID[0].id"]),
      // aepsdk-analytics-android `AnalyticsRequestSerializer.kt`: the ids the app synced
      // (`Identity.syncIdentifiers`) as `cid.<type>.id` and `.as`, `1` authenticated.
      IdentityFields(
        form: "hit",
        root: "the hit's variables; authenticatedCustomerID the first cid.<type>.id whose .as is 1",
        user: ["vid", "authenticatedCustomerID"], device: ["mid", "aid"]),
    ],
    proxyHosts: [
      ProxyHost("edge.adobedc.net", "Adobe Experience Platform Edge"),
      ProxyHost("*.sc.omtrdc.net", "Adobe Analytics (tracking server)"),
      ProxyHost("*.2o7.net", "Adobe Analytics (legacy tracking server)"),
    ],
    wireNote:
      "A custom Edge domain (edge.domain) or first-party tracking server (analytics.server): add it with --intercept.",
    limits: [.adobeEdge, .adobeHit],
    rebuild: [
      .adobeEdgeInteract, .adobeEdgeConsent, .adobeHitTrackAction, .adobeHitTrackState, .adobeHitInternal,
    ])
}

extension Vendor.Rebuild {
  /// The Edge extension's `/ee/v1/interact` request (aepsdk-edge-android `RequestBuilder`,
  /// `EdgeNetworkService`: `{"events":[…],"xdm":{identityMap…},"meta":…}`, `?configId=`),
  /// gathered from the records of one request in their `event_index` order. A request to another
  /// Edge path (a location hint `/ee/or2/v1/interact`, `/ee/v1/collect`, the Server API's
  /// `/ee/v2/interact` of one `event` and `/ee/v2/collect`, both `?datastreamId=`) is sent there:
  /// its first record keeps the path. One that keeps none was sent to `/ee/v1/interact`, whose
  /// request the Edge extension always gives an `xdm`. A record keeps no `requestId`, which Edge's
  /// answer echoes, nor the Server API's `Authorization`, `x-api-key` and `x-gw-ims-org-id`: the
  /// request has none.
  public static let adobeEdgeInteract = Vendor.Rebuild(
    method: "sendEvent", url: "https://edge.adobedc.net/ee/v1/interact", mimeType: "application/json",
    body: .gatheredEvents(
      request: "request", required: "xdm", events: "events", index: "event_index",
      query: [Vendor.QueryField("config_id", as: "configId")], eventTime: ["xdm", "timestamp"], path: "path",
      forms: [
        Vendor.PathForm(
          pathSuffix: "/v2/interact", events: "event", single: true,
          query: [Vendor.QueryField("config_id", as: "datastreamId")]),
        Vendor.PathForm(
          pathSuffix: "/v2/collect", events: "events", single: false,
          query: [Vendor.QueryField("config_id", as: "datastreamId")]),
      ]),
    summary:
      "the Edge request of this record and the records after it (no requestId and no Server API credentials are kept)"
  )

  /// The Edge extension's `/ee/v1/privacy/set-consent` request (aepsdk-edge-android
  /// `RequestBuilder.getConsentPayload`: `{"consent":[…],"identityMap":…,"meta":…,"query":…}`,
  /// `?configId=`), gathered from its records in their `consent_index` order; sent to the path
  /// its first record keeps, when it keeps one (a location hint).
  public static let adobeEdgeConsent = Vendor.Rebuild(
    method: "setConsent", url: "https://edge.adobedc.net/ee/v1/privacy/set-consent",
    mimeType: "application/json",
    body: .gatheredEvents(
      request: "request", required: nil, events: "consent", index: "consent_index",
      query: [Vendor.QueryField("config_id", as: "configId")], eventTime: ["value", "metadata", "time"],
      path: "path", forms: []),
    summary: "the set-consent request of this record and the records after it (no requestId is kept)")

  /// The Analytics extension's `trackAction` hit (aepsdk-analytics-android
  /// `AnalyticsHitProcessor`, `ContextDataUtil`): its variables and its context data nested at
  /// each key's dots, posted to `/b/ss/<report suites>/<0|10>/<version>/s<random>` (`10` when
  /// Audience Manager forwarding is on: `AnalyticsHitProcessor`'s `aamForwardingEnabled`, kept as
  /// the record's `path_mode`). A record keeps neither the tracking server (the customer's own,
  /// or a CNAME) nor the path's version and random number: the hit goes to
  /// `tracking-server.sc.omtrdc.net` with `TAGSCOPE` and `s0`.
  public static let adobeHitTrackAction = adobeHit("trackAction")
  /// The Analytics extension's `trackState` hit, as ``adobeHitTrackAction``.
  public static let adobeHitTrackState = adobeHit("trackState")
  /// The Analytics extension's own hits (Lifecycle…), as ``adobeHitTrackAction``.
  public static let adobeHitInternal = adobeHit("internalAction")

  private static func adobeHit(_ method: String) -> Vendor.Rebuild {
    Vendor.Rebuild(
      method: method, url: "https://tracking-server.sc.omtrdc.net/b/ss/",
      mimeType: "application/x-www-form-urlencoded",
      body: .contextDataHit(
        variables: "variables", contextData: "sdk_context_data", suites: "report_suites", mode: "path_mode",
        path: "/TAGSCOPE/s0"),
      summary:
        "the Analytics hit of its variables and context data, to its path's mode (0, or 10 when Audience Manager forwarding was on); no tracking server and no path version are kept (tracking-server.sc.omtrdc.net, TAGSCOPE)"
    )
  }
}

extension Vendor.Shape {
  /// Adobe Experience Platform Edge: JSON (the Web SDK's beacons post it as `text/plain`).
  public static let adobeEdge = Vendor.Shape(
    methods: ["POST"], contentTypes: ["application/json", "text/plain"],
    encodings: ["JSON: events[] of xdm, data, meta"], auth: "configId (datastream) in the query")

  /// The Edge Network Server API (`/ee/v2/…`): JSON, authenticated by an Adobe Developer
  /// project.
  public static let adobeEdgeServer = Vendor.Shape(
    methods: ["POST"], contentTypes: ["application/json"],
    encodings: ["JSON: event (interact) or events[] (collect) of xdm, data"],
    auth: "Authorization: Bearer (IMS token), x-api-key, x-gw-ims-org-id; datastreamId in the query")

  /// An Adobe Analytics hit: form data (POST), or the query string of a GET.
  public static let adobeHit = Vendor.Shape(
    methods: ["POST", "GET"], contentTypes: ["application/x-www-form-urlencoded"],
    encodings: ["form data: variables, context data between c. and .c", "query string (GET)"],
    auth: "report suite in the path")
}

extension Vendor.Limit {
  /// Adobe Experience Platform Edge: no request bound we could read in Adobe's Edge Network
  /// documentation or the Edge extension's source (it sends a few events a request); Tagscope's
  /// own, 1 MB.
  public static let adobeEdge = Vendor.Limit(
    paths: [
      "/ee/v1/interact", "/ee/v1/collect", "/ee/v1/privacy/set-consent", "/ee/v1/identity/acquire",
      "/ee/v2/interact", "/ee/v2/collect",
    ], requestBytes: 1024 * 1024,
    pastIt: "413 with Edge's problem document",
    source: "Tagscope's own: none documented (adobe/aepsdk-edge-android sends a few events a request)")

  /// Adobe Analytics hits: one call a hit; no POST bound documented for the mobile extension's
  /// hits (AppMeasurement's GET hits are bounded by URL length); Tagscope's own, 1 MB.
  public static let adobeHit = Vendor.Limit(
    paths: ["/b/ss/RSID/0/VERSION/sRANDOM"], requestBytes: 1024 * 1024,
    pastIt: "413", source: "Tagscope's own: none documented for a POSTed hit (one call a hit)")
}
