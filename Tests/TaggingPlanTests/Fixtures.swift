import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline

@testable import TaggingPlan

/// The plan most tests check records against (the design document's example, extended). Line
/// numbers matter: tests assert messages citing them.
let samplePlanYAML = """
  plan: Podcasts
  version: 3
  screens:
    podcasts:
      providers:
        firebase: {name: screen_view, params: {screen_name: show_podcasts}}
    favorites:
      providers:
        firebase: {name: screen_view, params: {screen_name: show_favorites}}
    podcastPlayer: {}
  actions:
    playPodcast:
      properties:
        podcast_title: {type: string, required: true, maxLength: 20}
        podcast_duration: {type: integer, minimum: 0}
        podcast_id: {type: string, pattern: "^p[0-9]+$"}
      screens: [podcasts, favorites]
      providers:
        firebase:
          - {when: {screen: podcasts}, name: play_podcast_from_podcasts, params: [podcast_title, podcast_duration]}
          - {when: {screen: favorites}, name: play_podcast_from_favorites, params: [podcast_title, podcast_duration]}
        amplitude: {name: Play Podcast}
        piano: none
  events:
    playerDidFail:
      severity: warning
      properties:
        error: {type: string, enum: [network, decoding]}
  states:
    autoPlay: {properties: {value: {type: boolean, required: true}}}
  timed:
    listening:
      providers:
        firebase:
          - {when: {phase: stop}, name: listening, params: {duration: {type: number, minimum: 0}}}

  """

/// The sample plan, loaded.
func samplePlan() throws -> Plan {
  try PlanLoader.load(yaml: samplePlanYAML, file: "sample.yaml")
}

/// A record as the inspector would write it.
func record(
  _ seq: UInt64, _ kind: RecordKind, _ name: String, _ properties: Properties = [:], screen: String? = nil,
  outputs: [ProviderOutput] = []
) -> Record {
  Record(
    seq: seq, time: Date(timeIntervalSince1970: 1_800_000_000), kind: kind, name: name,
    properties: properties,
    context: RecordContext(screen: screen, history: screen.map { [$0] } ?? []), outputs: outputs)
}

/// A `sent` output with one `logEvent` call.
func sent(_ provider: String, _ name: String, _ parameters: Properties = [:], method: String = "logEvent")
  -> ProviderOutput
{
  ProviderOutput(
    provider: provider, status: .sent,
    calls: [CallDescription(method: method, name: name, parameters: parameters)])
}

/// A well-formed playPodcast on `screen` reaching firebase, amplitude and (dropped) piano.
func goodPlay(_ seq: UInt64, screen: String = "favorites") -> Record {
  let properties: Properties = [
    "podcast_title": "Swift by Sundell", "podcast_duration": 1830, "podcast_id": "p1",
  ]
  return record(
    seq, .userAction, "playPodcast", properties, screen: screen,
    outputs: [
      sent(
        "firebase", "play_podcast_from_\(screen)",
        ["podcast_title": "Swift by Sundell", "podcast_duration": 1830]),
      sent("amplitude", "Play Podcast", properties, method: "track"),
      ProviderOutput(provider: "piano", status: .dropped),
    ])
}

/// Validates records with a fresh validator; returns the violations and the validator.
func validate(_ records: [Record], plan: Plan) -> ([PlanViolation], PlanValidator) {
  var validator = PlanValidator(plan: plan)
  var violations: [PlanViolation] = []
  for record in records { violations += validator.validate(record) }
  return (violations, validator)
}

/// Writes `records` as a recording (header: app Podcasts, device test) named `name` in
/// `directory`, then `trailer` as it is; returns its path.
func writeRecording(_ records: [Record], named name: String, in directory: URL, trailer: String = "") throws
  -> String
{
  let header = RecordingHeader(app: "Podcasts", device: "test")
  let text =
    ([RecordLineEncoder.line(header)] + records.map(RecordLineEncoder.line)).joined(separator: "\n") + "\n"
    + trailer
  let url = directory.appendingPathComponent(name)
  try Data(text.utf8).write(to: url)
  return url.path
}

/// `count` steps of the simulator's journeys through the demo's real hub and mappings, as records.
func demoRecords(seed: UInt64, count: Int) throws -> [Record] {
  let clock = ManualClock(start: DemoHub.seededEpoch)
  let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: seed)
  let recorder = DispatchRecorder()
  hub.addObserver(recorder)
  let simulator = PodcastSimulator(hub: hub, seed: seed)
  for _ in 0..<count { clock.advance(by: simulator.step()) }
  return recorder.dispatches.map { Record(dispatch: $0) }
}
