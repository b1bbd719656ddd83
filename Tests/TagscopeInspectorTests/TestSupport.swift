import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import TagscopeInspector
import TagscopeRecording
import TagscopeTestSupport
import TagscopeTimeline

/// A sink that takes its time (2 ms a batch): slower than the hub, so an inspector that waits for
/// room does wait.
final class SlowSink: RecordSink, @unchecked Sendable {
  func receive(_ items: [SinkItem]) { usleep(2000) }
  func flush() {}
  func close() {}
}
