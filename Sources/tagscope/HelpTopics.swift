import Foundation
import TaggingPlan
import TaggingPlanCodegen
import TaggingPlanImport
import TaggingPlanReports
import TagscopeDiff
import TagscopeLive
import TagscopeServer
import TagscopeTimeline
import TagscopeUI
import TagscopeVendors

/// The `tagscope help TOPIC` pages, by task. Each is generated from the table the code itself uses
/// (the debugger's keys and legend, the filter keys, the router's paths, the report formats, the
/// benchmark groups), so a row added there is documented here.
enum HelpTopics {
  /// Name, one-line summary and page of each topic, in the order `tagscope help` lists them.
  static let all: [(name: String, summary: String, text: @Sendable () -> String)] = [
    ("keys", "the debugger's keys and the marks of its Events list", keys),
    ("filter", "the filter language (debugger, query API, waits)", filter),
    ("listen", "listen: apps, SDKs, the query API; its endpoints", listen),
    ("proxy", "watch a build you cannot change: the proxy, its CA, Firebase's log", proxy),
    (
      "plan", "the tagging plan format: every key, constraint, example",
      { PlanFormatReference.text }
    ),
    ("qa", "validate, reports, diff, plan infer, plan import, redact", qa),
    ("codegen", "from plan to code: typed tags and mappings, the round trip", codegen),
    ("uitests", "UI tests asking listen: reset, wait, records, test scopes", uitests),
    ("bench", "the benchmark groups of scripts/bench, fuzzing", bench),
  ]

  /// The topics as `tagscope help` and `tagscope --help` list them: one line each, name and summary.
  static var list: String {
    all.map { "\n  \($0.name.padding(toLength: 8, withPad: " ", startingAt: 0)) \($0.summary)" }.joined()
  }

  /// The topics' names, comma-separated.
  static var names: String { all.map(\.name).joined(separator: ", ") }

  /// Where the proxy's CA is kept, for the pages that name the proxy.
  static let caLocation =
    "tagscope proxy makes its CA on first use in the user's config directory (--ca-dir for another); tagscope proxy ca prints where and how to trust it."

  /// The heading of the table of the hosts the proxy decrypts.
  static let hostsHeading = "Hosts decrypted"
  /// The heading of `help proxy`'s table of what the registry says of each vendor's traffic.
  static let wireNotesHeading = "Other hosts and vendors"

  /// The heading of the section on Firebase's own uploads through the proxy.
  static let firebaseUploadHeading = "Firebase for apps: its own uploads"
  /// The heading of the section on reading Firebase's debug log.
  static let firebaseLogHeading = "Firebase for apps: the debug log"

  /// `tagscope help TOPIC` for the topic whose page has the section `heading`: a pointer made from
  /// where the text is, so moving a section moves its pointers (`tagscope help`, the list, when no
  /// page has it).
  static func pointer(to heading: String) -> String {
    let marker = "\n" + heading.uppercased() + "\n"
    guard let topic = all.first(where: { $0.text().contains(marker) }) else { return "tagscope help" }
    return "tagscope help \(topic.name)"
  }

  static func keys() -> String {
    var page = HelpPage(
      "Keys and legend",
      """
      tagscope demo, replay and listen show the same debugger: the Events list, and for the selected \
      record the Screens, Session and Providers panes as of that record. ? shows this page inside it.
      """)
    page.table("Keys", DebuggerReference.keys.map { ($0.key, $0.action) })
    page.table(
      "Events list", DebuggerReference.legend.map { ($0.mark, $0.meaning) },
      note:
        "Status columns are headed by each provider's initial (FAPBT: firebase, amplitude, piano, braze, fpti)."
    )
    page.section(
      "Many devices",
      """
      Under listen every Events row carries its device's short label (A, B, … in the order first \
      seen); Screens, Session and Providers show the selected record's own device. S lists the \
      devices with their counts, rate, violations and connection; s steps through them.
      """)
    page.section(
      "Terminal",
      """
      Every value is sanitized before it reaches the terminal (control, bidi and zero-width \
      characters shown escaped). NO_COLOR is honoured. Not a terminal, an unknown TERM or no UTF-8 \
      locale: one message, exit code 2.
      """)
    return page.text
  }

  static func filter() -> String {
    var page = HelpPage(
      "Filter language",
      """
      One language filters the debugger (/), the query API (filter=) and the waits of UI tests: \
      space-separated terms that must all match. key:value is exact (any case), key~value a part \
      of it, key~/regex/ a regular expression (the linear-time subset plans use); a bare word is a \
      part of the name, a bare /regex/ a name pattern; values with spaces go in double quotes.
      """)
    page.table("Keys", Filter.keys.map { ($0, keyMeaning($0)) })
    let stems = Filter.keys.map { $0.replacingOccurrences(of: "NAME", with: "") }
    let syntax = DebuggerReference.filterTerms.filter { row in !stems.contains { row.term.hasPrefix($0) } }
    page.table("Syntax", syntax.map { ($0.term, $0.meaning) })
    return page.text
  }

  /// What the terms of `key` do, from the debugger's table (whose rows start with the key).
  private static func keyMeaning(_ key: String) -> String {
    let stem = key.replacingOccurrences(of: "NAME", with: "")
    return DebuggerReference.filterTerms.first { $0.term.hasPrefix(stem) }?.meaning ?? ""
  }

  /// What `help listen` says of the SDK fields a decoder does not understand.
  static let fieldsNotUnderstoodNote = """
    Every field of an SDK request is carried into its records (call, properties, identity, \
    credentials) or, but for the transport fields below, reported: kept under the output's unread \
    by its place (batch[3].context.foo; a request's own fields on its first record) with a warning, \
    rule \(FieldsNotUnderstood.rule) (a plan counts it as a provider rule whose consequence is \
    degraded). The summary line and /tagscope/v1/summary count them (fieldsNotUnderstood: count, \
    first place). A time the SDK sends that does not read as its field's unit (milliseconds where \
    Braze sends seconds, text that is no ISO 8601 time) is not guessed: the record takes the time \
    it was received, with a <provider>.sent-time warning naming the field and what it held. A name \
    an event lacks is not guessed without a word either: an mParticle event_type or a Snowplow e \
    the API does not have, a custom event, screen view or self-describing event without its name \
    or schema is recorded under its type with a <provider>.event-type or .event-name warning; a \
    Mixpanel profile message with no operation with mixpanel.no-operation; a Firebase upload or \
    GA4 request holding no event (nor, for Firebase, user property) is recorded as one record named \
    request.
    """

  static func listen() -> String {
    var page = HelpPage(
      "tagscope listen",
      """
      tagscope listen [--port 7531] [--bind 127.0.0.1] [--token T] [--record FILE] [--plan PLAN] \
      [--headless] (tagscope listen --help: every option)

      One port takes an app's native stream (hub.attachDebugger(…) or a RemoteSink: JSON Lines \
      over TCP), the HTTP APIs of the official analytics SDKs pointed at it, and the query API of \
      UI tests. Each record's source is the device that sent it (Shop@iPhone15,2 · 4F2A); listen \
      keeps each device's screens, session and user. A 200 means the events will be in the \
      recording; when the disk or the plan check falls behind, HTTP clients get 503 with \
      Retry-After and native streams are read more slowly: nothing accepted is dropped. A request \
      answered 503 after its events were taken (a disk slower than the request timeout) is still \
      written; the SDK's retry of those events (same \(Vendors.messageIDFields.joined(separator: ", "))) \
      is skipped, counted in the summary and reported, so each is recorded once. Each SDK \
      request is held to its vendor's limits (body size, events per request) and every event to \
      4 MiB, a native line's limit, so that every recorded line reads back: past them the request \
      gets the vendor's refusal (413 or 400, its error shape) and nothing of it is recorded.

      From a real device: run listen on the Mac with --bind 0.0.0.0 --token T, and give the app \
      the Mac's address on the same network and the token. An iOS app needs \
      NSLocalNetworkUsageDescription in its Info.plist to reach the local network.

      A device log: --log firebase FILE follows a file as it grows, --log firebase - reads standard \
      input (adb logcat … | or log stream … |; Firebase's debug log in tagscope help proxy). When \
      standard input ends listen says so (on standard error headless, in the debugger's status \
      line) and serves apps and SDKs on until a signal; headless with --exit-on-eof it stops there \
      as on SIGTERM, its summary and --junit/--json reports written, which is what CI reading a \
      finished log (adb logcat -d …) wants. A logcat record keeps the log's time: the device's \
      local time read in this machine's time zone, in the current year (logcat prints none).
      """)
    page.table(
      "SDK endpoints", ListenEndpoints.eventPaths.map { ($0.path, $0.summary) },
      note: "Point an SDK's host at http://HOST:7531; a trailing / and any query are fine.")
    page.table(
      "SDK limits", Vendors.limits.map { ($0.paths.joined(separator: " "), $0.helpLine) },
      note:
        "Each request is held to its vendor's bounds (sizes after Content-Encoding); past one it "
        + "gets the vendor's answer and nothing of it is recorded.")
    page.table(
      "SDK set-up requests",
      Vendors.setupRequests.map { ($0.path, $0.methods.joined(separator: ", ") + ": " + $0.summary) },
      note: "Answered at once with the smallest reply that keeps the SDK on listen; nothing recorded.")
    page.table(
      "SDK fields not understood",
      Vendors.all.filter { !$0.transportFields.paths.isEmpty }.map {
        ($0.name, $0.transportFields.paths.joined(separator: " ") + ": " + $0.transportFields.reason)
      }, note: fieldsNotUnderstoodNote)
    page.section(
      "Delivery",
      """
      When the app's inspector and its SDKs both reach this listen (SDK host or proxy), each call the \
      hub handed an SDK is followed to the wire record that carried it: delivered (answer, latency), \
      in flight, queued (age), dropped by the SDK (a provider rule that drops it), refused (4xx, 5xx), \
      lost (the session ended or the app restarted before it was sent, or it was sent and the session \
      ended before the vendor answered), no wire source (none of its provider \
      reached listen), ambiguous. Matching: by the SDK's message id where both sides have one; else \
      the wire call of the same provider, name and parameters (less those its SDK adds itself: \
      \(Vendors.sdkPropertiesSummary)), from a device that may be the app's \
      (once paired, only its own), the same user, within \(Int(DeliveryLedger.defaultWindow)) s by the device's clock or the Mac's \
      (each source's offset taken from its records). Two identical calls in one window are ambiguous, \
      never guessed. Wire calls no call explains are listed apart. However long an SDK holds its calls \
      (Firebase batches for an hour outside debug mode), every call not yet sent stays matchable, up to \
      the last \(DeliveryLedger.matchingIndexLimit) with the same provider, name and parameters (all \
      devices together); a wire call whose parameters listen does not read looks through the last \
      \(DeliveryLedger.matchingIndexLimit) calls of its provider and name. An older call stays queued, \
      and is lost at the end. \
      Counts are exact; the entries of \
      each device's last \(DeliveryLedger.defaultKeptSettled) settled (or ambiguous) calls are kept, and each wire \
      source's last \(DeliveryLedger.defaultKeptSettled) wire calls no call explains (and those of its last two windows): \
      older ones are let go of, counted by source in the summary ("let go of before an in-app call came for them"), \
      and an in-app call that arrives later (an inspector connecting after its app's SDK sent many \
      calls) cannot match them: it stays queued, then lost, its reason naming them. Query: GET /tagscope/v1/delivery \
      (state, provider, device; wait=settled, counting every record acknowledged before it); the headless \
      summary ends with its line. The recording marks each request the proxy forwarded and its answer: \
      validate reads them as live (no answer: lost); a recording without marks (older) is read as if \
      listen answered every wire record, and its report says which reading it used.
      """)
    page.table(
      "Query API", ListenEndpoints.queryRoutes.map { ($0.method, $0.path) },
      note: "JSON; with --token, Authorization: Bearer T. See tagscope help uitests.")
    return page.text
  }

  static func proxy() -> String {
    var page = HelpPage(
      "tagscope proxy",
      """
      tagscope proxy [--proxy-port 8888] [--no-forward] [--ca-dir DIR] [listen's options] \
      (tagscope proxy run --help: every option)
      tagscope proxy ca     where the CA is, and how to trust it on a simulator, an iPhone, Android

      For a build whose SDK hosts cannot be changed (TestFlight, release candidate, store). Set the \
      device's HTTP and HTTPS proxy to this machine's port 8888 and trust the proxy's CA on it. For \
      the hosts below the proxy decrypts each request with a certificate its CA mints for the host, \
      records it as listen does (same records, devices, plan checks, debugger, reports), forwards it \
      unchanged to the vendor over verified TLS once the records are stored and relays the answer; \
      a vendor's refusal (4xx, 5xx) is reported beside them. A request past listen's limits (body \
      size, events, event size, encoding) gets listen's answer and is not forwarded, nor is one whose records \
      are not stored within the request timeout (503, Retry-After). Every other host is tunnelled byte for \
      byte, never decrypted. --no-forward answers locally as listen does. With --bind 0.0.0.0 the \
      proxy needs --token T, its password (any user name), or it does not start; --allow-no-token \
      runs it without one on a network you trust (Android's proxy settings send no password: over \
      USB, keep the proxy on loopback and adb reverse its port, as tagscope proxy ca says). It \
      never connects to loopback, link-local or unspecified addresses, nor to a name resolving to \
      one, unless --allow-loopback-upstream, and never to its own ports; each plain-HTTP request is \
      routed by its own target. The CA lives in the user's config \
      directory (key readable by its owner only); http://THIS-HOST:8888/ca.pem serves the certificate \
      to a device's browser.
      """)
    page.table(
      hostsHeading, InterceptedHosts.builtIn.map { ($0.pattern, $0.sdk) },
      note:
        "Add a RudderStack data plane with --rudderstack-host, self-hosted PostHog with --posthog-host, a Snowplow collector with --snowplow-collector, any other host listen decodes with --intercept."
    )
    page.table(wireNotesHeading, Vendors.wireNotes.map { ($0.name, $0.note) })
    page.section(
      firebaseUploadHeading,
      """
      First choice for Firebase Analytics: its own uploads. The SDK sends its events as gzip'd \
      protobuf to app-measurement.com/a (or a regional host, region1.app-measurement.com; recent iOS \
      SDKs app-analytics-services.com or app-analytics-services-att.com), hosts the proxy decrypts. \
      Each upload becomes firebase records of its device (its app instance id): every event by its \
      public name (_vs is screen_view), the screen views moving the device's screen history, the \
      session (_sid, _sno), every user property, the app and OS; the SDK's own events (origin auto) \
      are recorded as automaticEvent, not judged; fields Tagscope does not know are listed with \
      their place. The SDK batches its uploads (when the app goes to the background, else about \
      hourly); its debug mode (-FIRDebugEnabled on iOS, adb shell setprop \
      debug.firebase.analytics.app PACKAGE on Android) sends them at once. listen serves the same \
      path, POST /a.

      iOS: the proxy settings and CA of tagscope proxy ca are enough. Android: Firebase Analytics \
      ignores the system proxy (firebase-android-sdk#3652), and Google Play services may make the \
      upload rather than the app, so Android's proxy setting and a user CA do not reach it. Use an \
      emulator on a Google APIs image (not Google Play: it cannot be rooted), its whole network sent \
      to the proxy by the emulator itself and the CA in the system store (tagscope proxy ca, "a build \
      you cannot change"):
        emulator -avd NAME -writable-system -http-proxy http://127.0.0.1:8888
      A physical Android device: its traffic must reach the proxy at the network level (a \
      VPN-style forwarder to an HTTP proxy), with the CA in its system store (rooted); otherwise \
      read the debug log below.
      """)
    page.section(
      firebaseLogHeading,
      """
      The fallback: with verbose logging on, Firebase's SDK logs every event, screen view and user \
      property. listen (and proxy) read that log as it is written, each entry a firebase record of \
      its device, checked against the plan and Firebase's rules:

        xcrun simctl spawn booted log stream --level debug --predicate 'subsystem BEGINSWITH "com.google.firebase"' | tagscope listen --log firebase -
        adb logcat -v threadtime -s FA FA-SVC | tagscope listen --log firebase -
        tagscope listen --log firebase console.log     (a file is followed as it grows)
        adb logcat -d -v threadtime -s FA FA-SVC | tagscope listen --headless --log firebase - --exit-on-eof --plan PLAN --junit R.xml
                                                       (CI: a finished log read, then the reports)

      Verbose logging: the launch argument -FIRDebugEnabled (or -FIRAnalyticsDebugEnabled) on iOS; \
      adb shell setprop log.tag.FA VERBOSE and adb shell setprop log.tag.FA-SVC VERBOSE on Android.

      A line that looks like Firebase Analytics' but that the reader does not understand is \
      never skipped silently: the first of each wording is a problem with its file and line, and \
      all are counted by wording in listen's closing summary and in /tagscope/v1/summary \
      (logLinesNotUnderstood: count, the first wording and its place).
      """)
    return page.text
  }

  static func qa() -> String {
    var page = HelpPage(
      "QA: validate, reports, diff, infer, import",
      """
      tagscope validate --plan PLAN FILE… [--format FORMAT] [--fail-on error|warning] [--by-source]
      tagscope diff OLD NEW [--format FORMAT]
      tagscope plan infer FILE… > plan.yaml
      tagscope plan import --from FORMAT SOURCE > plan.yaml
      tagscope redact FILE -o OUT [--salt SALT] [--force]

      validate exits 0 when nothing is at or above --fail-on, 1 on violations, 2 on bad input, 64 \
      (with the usage) on arguments wrong as written. \
      Each violation names its recording file:line and its device; each coverage item is passed, \
      failing, blocked or not seen. diff compares two recordings' tags, properties and provider \
      calls without their timing. plan infer drafts a plan from recordings; plan import reads \
      another tool's tracking plan, each entry saying where it comes from.

      Beyond one event's schema, validate checks what the plan says of sequences and people \
      (tagscope help plan: JOURNEYS, CONSENT, pii): the order of tags (after), funnels (reached, \
      dropped at a step, broken order), counts (once per session, screen or app launch) and \
      double fires (duplicateWithin); calls of a provider whose consent category was withdrawn, \
      in-app and on the wire; personal data (email, phone, advertising id, IP, card, geolocation, \
      token) in any value a provider received, masked in the finding. Each finding names the \
      records it involves and fails its coverage item like any other. redact writes a copy of a \
      recording to attach to a ticket, each personal value replaced by a salted hash (the same \
      value, the same hash, within one file).
      """)
    page.table("validate --format", ReportFormat.allCases.map { ($0.rawValue, reportSummary($0)) })
    page.table("diff --format", DiffFormat.allCases.map { ($0.rawValue, diffSummary($0)) })
    page.table(
      "plan import --from", ImportFormat.allCases.map { ($0.rawValue, $0.summary) },
      note: "Without --from, the format is told from the content.")
    return page.text
  }

  static func codegen() -> String {
    var page = HelpPage(
      "From plan to code",
      """
      tagscope plan codegen PLAN… -o DIR [--module NAME] [--access public|internal] [--tour]

      Swift 6 source on AnalyticsHub from a plan (written by hand, drafted by plan infer, made by \
      plan import): typed tags, so an unplanned tag or a mistyped property does not compile, and \
      one mapping per provider producing exactly the calls the plan expects, so a plan change is a \
      regenerate. Required properties are non-optional, enums are Swift enums (number enums are \
      asserted), patterns, lengths, ranges and formats are checked by assert in debug builds. A \
      parameter the plan names that no property holds is read from the hub's context when its name \
      says what it is (below), otherwise the app passes it with the tag. Output is deterministic \
      and formatted by swift format; each file's header names the plan, its version and the tool.
      """)
    page.table("Files written (NAME: --module)", PlanCodegen.fileKinds.map { ("NAME" + $0.suffix, $0.holds) })
    page.table("Parameters from the hub's context", PlanCodegen.contextParameters.map { ($0.name, $0.reads) })
    page.section("Formats checked in debug builds", PlanCodegen.checkedFormats.joined(separator: ", "))
    page.section(
      "The round trip",
      """
        tagscope plan codegen plan.yaml -o Sources/AppTags --module AppTags --tour
        swift build                            the generated module, zero warnings
        AppTagsTour.run(on: hub)               every tag once, an Inspector recording to tour.jsonl
        tagscope validate --plan plan.yaml tour.jsonl     0 violations, every item passed
        tagscope diff hand.jsonl generated.jsonl          hand-written mappings against the plan's

      The last step checks mappings written by hand against the generated ones: send the same \
      traffic through a hub with each set of providers, record both with the inspector and diff the \
      recordings; each finding is a tag and provider where the hand-written mapping sends something \
      else. The demo's tests do this: the generated mappings have none of its four deliberate bugs, \
      and the diff names each of them.
      """)
    return page.text
  }

  private static func reportSummary(_ format: ReportFormat) -> String {
    switch format {
    case .text: "coverage, violations cited as recording:line #seq, the items that did not pass"
    case .json: "every violation (file, line, seq, source, planFile, expected, actual) and coverage"
    case .junit: "one case per coverage item: failing, skipped (not seen, blocked) or passed"
    case .html: "one self-contained page: coverage matrix, violations by rule, per source"
    }
  }

  private static func diffSummary(_ format: DiffFormat) -> String {
    switch format {
    case .text: "the changes for a terminal"
    case .json: "the files, the verdict, counts by change and every change"
    case .junit: "one case per tag: failed when one of its changes is at --fail-on"
    case .markdown: "for a pull request comment: a verdict, counts, a table of changes per tag"
    }
  }

  static func uitests() -> String {
    var page = HelpPage(
      "UI tests",
      """
      A UI test resets listen, taps through the app, then waits for the tags it expects: wait \
      answers 200 as soon as N matching records arrived, 408 with those that did when the \
      timeout passes, at once with timeout=0 (no sleeping, no polling). TagscopeClient does this \
      from Swift (see its DocC article); any HTTP client can:

          curl -s -X POST localhost:7531/tagscope/v1/reset
          curl -s 'localhost:7531/tagscope/v1/wait?filter=name:addToCart%20prop.sku:A-1&timeout=5'
          curl -s 'localhost:7531/tagscope/v1/records?filter=has:violations&limit=50'

      Filters are the debugger's (tagscope help filter). No web page may call the API: a request \
      with an Origin header is 403 unless --cors-origin names it.
      """)
    page.table("Routes", ListenEndpoints.queryRoutes.map { ($0.method, $0.path) })
    page.section(
      "Test scopes",
      """
      A scope says "these records are mine": POST scope/begin?name=checkout opens it (with \
      &source=App@iPhone, as summary's bySource names it, it takes only that device's records, so \
      tests on several devices at once do not see each other's); the records stored until POST \
      scope/end?name=checkout are its own, and the end answers with their count and the plan's \
      violations. scope=NAME narrows summary, records, wait and violations to them (within the \
      current segment). Both lines go into the recording as drop markers of nothing \
      ({"dropped":0,"by":"scope","scope":"checkout","event":"begin"}), which every reader takes; \
      replay lists them among its gaps, and tagscope validate --scope NAME validates one scope's \
      records (cited at their lines in the recording; --scope '*' --format junit gives one \
      testsuite per scope). GET assert answers at once from what is stored (wait first): \
      exactly=N, unplanned=none, order=NAME,NAME (in this order, others between), violations=none, \
      any of them in one request, on the records passing filter=F (all without one). It answers \
      200 with "passed" and, for each failed check, a message and its records (at most 20).

          curl -s -X POST 'localhost:7531/tagscope/v1/scope/begin?name=checkout'
          curl -s 'localhost:7531/tagscope/v1/wait?scope=checkout&filter=name:purchase'
          curl -s 'localhost:7531/tagscope/v1/assert?scope=checkout&exactly=1&filter=name:purchase&violations=none'
          curl -s -X POST 'localhost:7531/tagscope/v1/scope/end?name=checkout'

      From Swift: try await tagscope.scope("checkout") { … } ends the scope and throws an error \
      with the violations' messages (which fails an XCTest); tagscope.expect(.exactly(1, filter: \
      "name:purchase"), .noUnplanned, scope: "checkout") throws with what failed. With the \
      TagscopeClientTesting library, tagscope.assertScope("checkout") { … } and \
      tagscope.assertChecks(…, scope: "checkout") fail the XCTest at their line, once per \
      violation or failed check, and carry on.
      """)
    page.section(
      "Python, standard library only",
      QueryAPIExamples.python.split(separator: "\n", omittingEmptySubsequences: false).map {
        $0.isEmpty ? "" : "    " + $0
      }.joined(separator: "\n"))
    return page.text
  }

  static func bench() -> String {
    var page = HelpPage(
      "Benchmarks",
      """
      scripts/bench [GROUP…] [--json] builds TagscopeBench and tagscope in release mode and prints \
      a table of figures (--json: one JSON object). Without a group it runs them all.
      """)
    page.table("Groups", BenchmarkGroup.allCases.map { ($0.rawValue, $0.summary) })
    page.section(
      "Data",
      """
      Each figure is printed with its target and the baseline it is compared with. inspector \
      generates a 1,000,000-record recording from the demo into bench-data/ (about 1 GB) and reuses \
      it; devices needs about 1 GB in the temporary directory while it runs.
      """)
    page.section(
      "Against another build",
      """
      scripts/bench-against [-k K] REF [GROUP…] builds tagscope and TagscopeBench in release at REF \
      and at HEAD (git worktrees in .build-compare/, each with its own build folder, under nice), runs \
      each group K times (3) alternating REF and HEAD, and prints the medians side by side with \
      HEAD/REF, marking WORSE a figure that moved more than 5% against its direction. Quote those \
      ratios, not rates from two runs apart. scripts/module-lines REF prints files, lines and \
      repeated-code pairs per module at REF and HEAD.
      """)
    page.section(
      "Fuzzing",
      """
      The unit tests include a bounded mutation pass (libFuzzer-style byte mutations with JSON and \
      YAML dictionaries, seeded, 2 s per target) over the JSON lexer, the record decoder, the \
      recording reader and the plan loader, and one over every SDK route of listen in every form \
      it takes (JSON, text/plain, form data= in JSON or base64, gzip, deflate, GET query strings; \
      the routes' passes share 12 s), the native stream's line framing and stored lines, the \
      Firebase debug log parser and the proxy's request-target parser; an input that breaks an \
      invariant (a round trip, a located error, no accepted event that a replay cannot read back, \
      no input slower than 2 s) fails the test and is saved under the temporary directory. Run \
      longer or with another seed with:

          TAGSCOPE_FUZZ_SECONDS=60 TAGSCOPE_FUZZ_SEED=7 swift test --filter Fuzz
      """)
    return page.text
  }
}
