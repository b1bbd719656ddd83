/// The groups of benchmarks `scripts/bench GROUP…` runs (TagscopeBench runs each by this name) and
/// `tagscope help bench` lists, with what each measures.
public enum BenchmarkGroup: String, CaseIterable, Sendable {
  case hub, providers, inspector, listen, hostile, plan, report, ui, reload, api, devices, `import`,
    sdkdevices, firebaselog, firebaseupload, codegen, growth, proxy, patterns, ledger

  /// What the group measures.
  public var summary: String {
    switch self {
    case .hub: "the hub against direct mapping calls, 8 threads sending, send latency beside a slow adapter"
    case .providers: "what checking the providers' documented rules adds to each send"
    case .inspector: "1,000,000 demo records: time to the first screen, indexing against Python's json.loads"
    case .listen:
      "listen: 8 native streams into a recording against socat, Segment batches per second; "
        + "each SDK decoder's events per second (TAGSCOPE_LISTEN_PARTS: server, ingest)"
    case .hostile:
      "one hostile client's cost to the others; amplifying requests' peak memory per MB of body, Firebase's /a too"
    case .plan: "validating a large recording against the demo plan beside the timeline's indexing"
    case .report: "validate --format json on 1,000,000 records against orjson"
    case .ui: "frame rendering with a million records, idle CPU, the live demo at 10,000 events/s"
    case .reload: "the debugger's plan entry added (y) on 1,000,000 records: re-check time, key latency"
    case .api: "the query API's wait latency, records with a filter over 1,000,000 records"
    case .devices: "20 native devices into listen with the debugger: loss, memory per record, key latency"
    case .import: "importing an Iglu tree: seconds and peak memory; a large catalogue's cost per record"
    case .sdkdevices:
      "20 SDK devices over HTTP into the debugger in tmux: loss, key latency, memory per record"
    case .firebaselog: "Firebase debug log lines parsed per second against reading the same lines unparsed"
    case .firebaseupload:
      "Firebase's own uploads decoded to records, MB/s, against Python's protobuf: parsing only, and the same work"
    case .growth:
      "reports at 10k, 20k, 40k distinct tags: time against the JUnit report's growth; peak RSS of "
        + "validate --format json, diff and plan infer on N distinct tags (GROWTH_MEMORY_TAGS)"
    case .proxy:
      "SDK requests through tagscope proxy and a tunnelled host against the vendor direct: p50/p99, throughput; "
        + "Segment batches and Firebase uploads through tagscope and mitmproxy (TAGSCOPE_PROXY_PARTS)"
    case .codegen: "plan codegen of a 500-event plan against loading it; the generated module's build"
    case .patterns:
      "the worst accepted patterns and random ones on 100 KB values, per character; 50 slow waits beside ingest"
    case .ledger:
      "the delivery ledger: 20 devices' in-app and wire records with and without it, heap per record; "
        + "matching precision and recall without message ids"
    }
  }
}
