// The player is a feature module of its own; what the demo's users (the debugger, the tests) name
// through PodcastDemo — `Podcast`, the player's tags — comes with it.
@_exported import PodcastPlayerFeature
