import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline

/// A sink that takes its time (2 ms a batch): slower than the hub, so an inspector that waits for
/// room does wait.
final class SlowSink: RecordSink, @unchecked Sendable {
  func receive(_ items: [SinkItem]) { usleep(2000) }
  func flush() {}
  func close() {}
}

/// Waits until `condition` holds; returns whether it does. The deadline only ends a wait that
/// would never end (a bug): no test waits for time to pass.
@discardableResult
func eventually(timeout: TimeInterval = 60, _ condition: () -> Bool) -> Bool {
  let deadline = DispatchTime.now() + timeout
  while !condition() {
    if DispatchTime.now() >= deadline { return condition() }
    usleep(1_000)
  }
  return true
}
