import Foundation
import TagscopeTimeline
import TagscopeUI

/// `tagscope export --html`'s figures (issue 48): the time to write the HTML session of a
/// recording of the podcast hub's records, its size and its size against the recording's (target
/// ≤ 1.5), for 10,000 and 100,000 records, without a plan (the providers' own rule violations are
/// marked). The recording is indexed first, as the command does; time-to-first-render in headless
/// Chromium is `scripts/html-session-bench`'s.
///
/// `SESSION_BENCH_RECORDS=N,M` picks other sizes.
enum SessionPageBench {
  static func run(_ report: inout BenchReport) throws {
    let sizes =
      ProcessInfo.processInfo.environment["SESSION_BENCH_RECORDS"]?.split(separator: ",").compactMap {
        Int($0)
      }
      ?? [10_000, 100_000]
    for count in sizes {
      let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "tagscope-session-bench-\(getpid())-\(count).jsonl")
      defer { try? FileManager.default.removeItem(at: url) }
      _ = try PlanBench.writeRecording(records: count, to: url)
      let recordingBytes = try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
      let timeline = try Timeline.open(path: url.path)
      defer { timeline.release() }
      timeline.waitUntilIndexed()
      let source = InspectorTimelineSource(timeline: timeline, sourceLabel: url.lastPathComponent)
      var pageBytes = 0
      let seconds = measureSeconds {
        let page = SessionPage.html(from: source)
        pageBytes = page.utf8.count
        blackHole(page)
      }
      let name = "report.html_session.\(count / 1000)k"
      let what = "\(source.count) records, recording \(recordingBytes >> 20) MiB"
      report.add(
        name + ".export", seconds, unit: "s", baseline: "SessionPage.html of an indexed recording; \(what)")
      report.add(name + ".size", Double(pageBytes) / 1_048_576, unit: "MiB", baseline: "the page; \(what)")
      report.add(
        name + ".size_ratio", Double(pageBytes) / Double(max(1, recordingBytes)), unit: "x",
        baseline: "page bytes / recording bytes", atMost: 1.5)
    }
  }
}
