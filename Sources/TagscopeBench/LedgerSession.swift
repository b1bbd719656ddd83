import AnalyticsHub
import Foundation
import TagscopeRecording

/// A generated session of Segment `track` calls on many devices, with its ground truth: each
/// device's in-app records (the hub's calls) and the wire records `listen` makes of the batches
/// its SDK sends, in the order the Mac receives them. No message ids (matching by provider, name,
/// parameters, device and window); each device's clock is off the Mac's by up to three minutes;
/// odd devices' SDKs leave the messages unstamped (the wire record has the Mac's time); some calls
/// are repeated identically within a second; one batch in 40 is lost; some wire calls are the
/// SDK's own (`Application Opened`, no in-app call).
struct LedgerSession {
  /// One record and when the Mac receives it (milliseconds since 1970).
  struct Arrival {
    var record: Record
    var received: Int64
    /// The generated call it is (in-app) or carries (wire); `nil`: the SDK's own call.
    var call: Int?
  }

  static let names = [
    "Episode Played", "Episode Paused", "Podcast Followed", "Search Performed", "Screen Viewed",
    "Episode Downloaded", "Share Tapped", "Settings Changed",
  ]
  static let screens = ["home", "podcasts", "favorites", "player", "settings"]

  /// Every record, by the time the Mac receives it.
  private(set) var arrivals: [Arrival] = []
  /// The calls a repeat made identical to the call before (their match is ambiguous by rule).
  private(set) var repeats = 0

  /// `devices` devices making `callsPerDevice` calls each from `start` (ms since 1970) on;
  /// `unstamped`: odd devices' messages carry no time of their own.
  init(devices: Int, callsPerDevice: Int, start: Int64, unstamped: Bool = true, seed: UInt64 = 46) {
    var random = BenchRandom(seed: seed)
    var nextCall = 0
    for device in 0..<devices {
      let skew = Int64(device % 7 - 3) * 60_000
      let stamped = !unstamped || device.isMultiple(of: 2)
      let source = "segment@10.0.0.\(device + 1)"
      var mac = start + Int64(device) * 37
      var batch: [(call: Int, record: Record)] = []
      var lastFlush = mac
      var previous: (name: String, params: Properties)?
      for _ in 0..<callsPerDevice {
        let repeating = previous != nil && random.next() % 100 < 3
        mac += repeating ? Int64(100 + random.next() % 800) : Int64(200 + random.next() % 2_800)
        let (name, params) = repeating ? previous! : Self.call(&random)
        if repeating { repeats += 1 }
        previous = (name, params)
        let call = nextCall
        nextCall += 1
        let inApp = Self.inApp(name, params, at: mac + skew, device: "device-\(device)")
        arrivals.append(Arrival(record: inApp, received: mac + 20, call: call))
        batch.append((call, Self.wire(name, params, at: stamped ? mac + skew : 0, source: source)))
        if batch.count >= 20 || mac - lastFlush >= 10_000 {
          flush(&batch, at: mac + 5, stamped: stamped, source: source, random: &random)
          lastFlush = mac
        }
      }
      flush(&batch, at: mac + 5, stamped: stamped, source: source, random: &random)
    }
    arrivals.sort { $0.received < $1.received }
  }

  /// For each in-app record's position, the position of the wire record carrying its call (absent:
  /// never sent), positions being indexes into ``arrivals``.
  var truth: [Int: Int] {
    var wireOf: [Int: Int] = [:]
    for (position, arrival) in arrivals.enumerated() where arrival.record.isFromSDK {
      if let call = arrival.call { wireOf[call] = position }
    }
    var truth: [Int: Int] = [:]
    for (position, arrival) in arrivals.enumerated() where !arrival.record.isFromSDK {
      if let call = arrival.call, let wire = wireOf[call] { truth[position] = wire }
    }
    return truth
  }

  /// The number of in-app calls.
  var callCount: Int { arrivals.filter { !$0.record.isFromSDK }.count }

  /// Sends (or loses, one batch in 40) the SDK's `batch` at Mac time `mac`, with an automatic
  /// event now and then.
  private mutating func flush(
    _ batch: inout [(call: Int, record: Record)], at mac: Int64, stamped: Bool, source: String,
    random: inout BenchRandom
  ) {
    defer { batch.removeAll() }
    guard !batch.isEmpty, random.next() % 40 != 0 else { return }
    let received = mac + Int64(30 + random.next() % 200)
    for (call, var record) in batch {
      if !stamped { record.timeMilliseconds = received }
      arrivals.append(Arrival(record: record, received: received, call: call))
    }
    if random.next() % 20 == 0 {
      let opened = Self.wire("Application Opened", [:], at: received, source: source)
      arrivals.append(Arrival(record: opened, received: received, call: nil))
    }
  }

  private static func call(_ random: inout BenchRandom) -> (String, Properties) {
    let name = names[Int(random.next() % UInt64(names.count))]
    let params: Properties = [
      "episode": .int(Int(random.next() % 500)),
      "screen": .string(screens[Int(random.next() % UInt64(screens.count))]),
    ]
    return (name, params)
  }

  /// An in-app record whose Segment output holds one `track` call.
  private static func inApp(_ name: String, _ params: Properties, at time: Int64, device: String) -> Record {
    let output = ProviderOutput(
      provider: "segment", status: .sent,
      calls: [CallDescription(method: "track", name: name, parameters: params)])
    return Record(
      seq: 1, time: Date(recordMilliseconds: time), kind: .event, name: name, properties: params,
      outputs: [output], source: device)
  }

  /// A Segment `track` message without a message id, as `listen` records it.
  static func wire(_ name: String, _ params: Properties, at time: Int64, source: String) -> Record {
    let message: Properties = ["type": "track", "event": .string(name), "properties": .object(params)]
    let output = ProviderOutput(
      provider: "segment", status: .sent,
      calls: [CallDescription(method: "track", name: name, parameters: message)])
    return Record(
      seq: 1, time: Date(recordMilliseconds: time), kind: .event, name: name, properties: params,
      outputs: [output], source: source, raw: "")
  }
}
