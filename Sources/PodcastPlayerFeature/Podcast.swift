import AnalyticsHub

/// A podcast, as the player plays it (seed 000's podcast player).
public struct Podcast: Sendable, Hashable {
  public var id: String
  public var title: String
  /// Length in seconds.
  public var duration: Int
  public var category: String
  /// Download size in bytes.
  public var sizeBytes: Int

  /// A podcast.
  public init(id: String, title: String, duration: Int, category: String, sizeBytes: Int) {
    self.id = id
    self.title = title
    self.duration = duration
    self.category = category
    self.sizeBytes = sizeBytes
  }

  /// Identifier, title and duration as tag properties, the payload of the player's tags and of
  /// the app's tags about a podcast.
  public var tagProperties: Properties {
    ["podcast_id": .string(id), "podcast_title": .string(title), "podcast_duration": .int(duration)]
  }
}
