import TagscopeVendors

/// ``AmplificationBench``'s attacks on Firebase's upload path `POST /a` (issue 45's bad input),
/// its `firebase` part: protobuf written by hand, as `FirebaseUploadEdgeTests` writes it, against
/// the path's bound in the registry (``Vendor/Limit/firebaseUpload``).
enum FirebaseAttacks {
  static let path = "/a"
  static let contentType = "application/x-www-form-urlencoded"
  static let limit = Vendor.Limit.firebaseUpload

  /// The gzip bomb, the nested items, the most small events one upload may hold, the largest upload
  /// it takes (as many events, each with a 220-byte parameter, under 1 MB), and too many events;
  /// then, as a peer, PostHog's `/batch` with as many small events (`{"event":"e"}`), so that the
  /// process's fixed cost of a few thousand records is seen beside Firebase's. Each is measured
  /// after a one-event request to its path (``AmplificationBench/Attack/warmUp``).
  static var all: [AmplificationBench.Attack] {
    let zeros = [UInt8](repeating: 0, count: 16 * 1024 * 1024)
    let allowed = limit.eventsPerRequest ?? 4_000
    return [
      attack(
        "firebase_bomb", zeros, events: 0, sent: AmplificationBench.gzip(zeros), admitted: limit.requestBytes),
      attack("firebase_nested", bundle(event(field(1, nested(100_000)))), events: 0),
      attack("firebase_events", bundle(events(allowed)), events: allowed),
      attack(
        "firebase_events_gzip", bundle(events(allowed)), events: allowed, sent: gzipped(events(allowed))),
      attack("firebase_largest", bundle(events(allowed, padding: 220)), events: allowed),
      attack("firebase_too_many", bundle(events(60_000)), events: 0),
      AmplificationBench.Attack(
        name: "firebase_peer_posthog", path: "/batch/", body: postHog(allowed), events: allowed,
        connections: 1,
        part: "firebase", warmUp: postHog(1)),
    ]
  }

  /// PostHog's `/batch` body of `count` small events.
  private static func postHog(_ count: Int) -> [UInt8] {
    Array(
      (#"{"api_key":"k","batch":["# + Array(repeating: #"{"event":"e"}"#, count: count).joined(separator: ",")
        + "]}").utf8)
  }

  private static func attack(
    _ name: String, _ body: [UInt8], events: Int, sent: [UInt8]? = nil, admitted: Int? = nil
  ) -> AmplificationBench.Attack {
    // Warmed up with one event, sent as the attack is (gzip'd when it is).
    let one = bundle(self.events(1))
    return AmplificationBench.Attack(
      name: name, path: path, body: body, events: events, connections: 1, part: "firebase", sent: sent,
      contentType: contentType, admitted: admitted, warmUp: sent == nil ? one : AmplificationBench.gzip(one))
  }

  private static func gzipped(_ events: [UInt8]) -> [UInt8]? { AmplificationBench.gzip(bundle(events)) }

  /// `count` small events (`e`, one timestamp, a parameter of `padding` bytes when not 0), side by side.
  static func events(_ count: Int, padding: Int = 0) -> [UInt8] {
    let parameter = field(1, field(1, Array("p".utf8)) + field(2, [UInt8](repeating: 0x61, count: padding)))
    let one = event(padding == 0 ? [] : parameter)
    var out: [UInt8] = []
    out.reserveCapacity(one.count * count)
    for _ in 0..<count { out += one }
    return out
  }

  /// `depth` items (parameter field 6) nested in one another around a name; built inside out,
  /// backwards, as wrapping a copy each time would be quadratic.
  static func nested(_ depth: Int) -> [UInt8] {
    var backwards = Array(field(1, Array("x".utf8)).reversed())
    for _ in 0..<depth {
      backwards += varint(UInt64(backwards.count)).reversed()
      backwards.append(6 << 3 | 2)
    }
    return backwards.reversed()
  }

  static func event(_ parameters: [UInt8]) -> [UInt8] {
    field(2, parameters + field(2, Array("e".utf8)) + varint(3 << 3) + varint(1_700_000_000_000))
  }

  static func bundle(_ content: [UInt8]) -> [UInt8] {
    field(
      1, varint(1 << 3) + varint(1) + content + field(8, Array("android".utf8)) + field(21, Array("d1".utf8)))
  }

  static func field(_ number: UInt64, _ bytes: [UInt8]) -> [UInt8] {
    varint(number << 3 | 2) + varint(UInt64(bytes.count)) + bytes
  }

  static func varint(_ value: UInt64) -> [UInt8] {
    var value = value
    var out: [UInt8] = []
    while value >= 0x80 {
      out.append(UInt8(value & 0x7f) | 0x80)
      value >>= 7
    }
    return out + [UInt8(value)]
  }
}
