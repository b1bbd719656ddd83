import Foundation
import TagscopeRecording
import TagscopeTimeline

/// The debugger's `y` on 1,000,000 records: `tagscope replay --plan` in tmux, `a` drafts an
/// unplanned action's entry, `y` adds it to the plan file and every record is checked again on a
/// worker thread; keys pressed meanwhile are timed from outside (`tmux send-keys` until
/// `capture-pane` shows the selection moved), beside the same keys once the re-check is over.
enum ReloadBench {
  static func run(_ report: inout BenchReport) throws {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("tagscope").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
      throw UIBench.Failure(
        description: "\(binary) is missing: build it with `swift build -c release --product tagscope` first")
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-reloadbench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let recording = directory.appendingPathComponent("million.jsonl")
    let timeline = try UIBench.millionRecords(in: recording)
    timeline.close()
    timeline.release()
    let plan = directory.appendingPathComponent("plan.yaml").path
    try "plan: Podcasts\nversion: 1\nscreens:\n  podcasts: {}\n  favorites: {}\n".write(
      toFile: plan, atomically: true, encoding: .utf8)

    let session = UIBench.Session(name: "reloadbench-\(getpid())")
    defer { session.kill() }
    _ = try session.start(
      "LANG=C.UTF-8 TERM=xterm-256color exec '\(binary)' replay --plan '\(plan)' '\(recording.path)'")
    // Indexed and checked: the header's error count stops moving.
    try waitFor(session, seconds: 300, "the first check") { screen in
      screen.contains("/1,000,000") && screen.contains("plan Podcasts v1:")
    }
    var previous = ""
    try waitFor(session, seconds: 300, "the first check to end") { screen in
      let header = String(screen.prefix { $0 != "\n" })
      defer { previous = header }
      Thread.sleep(forTimeInterval: 1)
      return header == previous
    }
    for key in ["/", "k", "i", "n", "d", ":", "a", "c", "t", "i", "o", "n", "Enter"] { session.send(key) }
    try waitFor(session, seconds: 120, "the filter") { $0.contains("filter kind:action:") }
    session.send("a")
    try waitFor(session, seconds: 120, "the drafted entry") { $0.contains("drafted from") }
    let pressed = Date()
    session.send("y")
    try waitFor(session, seconds: 120, "the re-check to start") {
      $0.contains("re-checking") || $0.contains("and checked the records again")
    }
    // Keys while the header says the records are being checked again.
    var during: [Double] = []
    for press in 0..<200 {
      guard session.capture().contains("re-checking") else { break }
      let latency = time(session, press: press)
      if session.capture().contains("re-checking") { during.append(latency) }
    }
    try waitFor(session, seconds: 600, "the re-check") { $0.contains("and checked the records again") }
    let seconds = Date().timeIntervalSince(pressed)
    var after: [Double] = []
    for press in 0..<40 { after.append(time(session, press: press)) }
    session.send("q")
    guard !during.isEmpty else {
      throw UIBench.Failure(description: "the re-check was over before a key could be timed")
    }
    during.sort()
    after.sort()
    let p99 = during[min(during.count - 1, during.count * 99 / 100)]
    let afterP99 = after[min(after.count - 1, after.count * 99 / 100)]
    report.add(
      "ui.reload.key_latency.p99", p99, unit: "ms",
      baseline:
        "\(during.count) keys while y re-checks 1,000,000 records in tagscope replay (median "
        + String(format: "%.1f", during[during.count / 2]) + " ms)", atMost: 50)
    report.add(
      "ui.reload.key_latency.ratio", p99 / max(afterP99, 0.001), unit: "x",
      baseline: "p99 while re-checking / p99 of 40 keys after (" + String(format: "%.1f", afterP99) + " ms)")
    report.add(
      "ui.reload.seconds", seconds, unit: "s",
      baseline: "y until 'checked the records again', 1,000,000 records")
  }

  /// Presses `j` or `k` and returns the milliseconds until the Events title shows the selection moved.
  private static func time(_ session: UIBench.Session, press: Int) -> Double {
    let before = session.position().cursor
    let sent = Date()
    session.send(press % 2 == 0 ? "k" : "j")
    while Date().timeIntervalSince(sent) < 2 {
      let now = session.position().cursor
      if now != before && now != nil { break }
    }
    return Date().timeIntervalSince(sent) * 1000
  }

  private static func waitFor(
    _ session: UIBench.Session, seconds: Double, _ what: String, _ condition: (String) -> Bool
  ) throws {
    let start = Date()
    while Date().timeIntervalSince(start) < seconds {
      if condition(session.capture()) { return }
      Thread.sleep(forTimeInterval: 0.05)
    }
    throw UIBench.Failure(description: "timed out waiting for \(what):\n" + session.capture())
  }
}
