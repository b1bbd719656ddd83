import PodcastPlayerFeature

extension Podcast {
  /// The catalogue the simulator browses.
  public static let catalogue: [Podcast] = [
    Podcast(id: "p1", title: "Swift by Sundell", duration: 1830, category: "tech", sizeBytes: 44_000_000),
    Podcast(id: "p2", title: "Under the Radar", duration: 1_260, category: "tech", sizeBytes: 30_200_000),
    Podcast(
      id: "p3", title: "Accidental Tech Podcast", duration: 7_420, category: "tech", sizeBytes: 178_000_000),
    Podcast(id: "p4", title: "Radiolab", duration: 3_300, category: "science", sizeBytes: 79_000_000),
    Podcast(id: "p5", title: "99% Invisible", duration: 2_640, category: "design", sizeBytes: 63_400_000),
    Podcast(
      id: "p6", title: "Les Pieds sur terre", duration: 1_680, category: "society", sizeBytes: 40_300_000),
    Podcast(
      id: "p7", title: "Hardcore History", duration: 19_800, category: "history", sizeBytes: 475_000_000),
    Podcast(
      id: "p8", title: "Stuff You Should Know", duration: 2_940, category: "general", sizeBytes: 70_500_000),
  ]
}
