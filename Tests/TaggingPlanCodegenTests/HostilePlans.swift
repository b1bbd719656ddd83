/// Plans written to break a code generator: Swift keywords as names, names that collide once made
/// identifiers, names that are not identifiers at all, objects nested deep, a thousand events.
enum HostilePlans {
  /// Keywords, collisions after normalisation, non-identifiers, members a tag type declares.
  static let names = """
    plan: "Hostile: names & keywords"
    version: "1 \\"quoted\\""
    customProviders: [custom]
    description: "Names a generator must escape, normalise or number"
    screens:
      default: {}
      self: {}
      Self: {}
      my screen: {}
      my-screen: {}
      "42": {}
      "🎧": {}
    actions:
      class:
        description: "A keyword as a tag name, with \\\\(interpolation) and */ in its text"
        properties:
          for: {type: string, required: true}
          in: {type: integer}
          name: {type: string}
          properties: {type: boolean, required: true}
          a b: {type: string}
          a-b: {type: string}
          AB: {type: string}
          init: {type: string}
          Type: {type: string, enum: [default, self, Self, x y, x-y, ""]}
          "\\"quoted\\"": {type: string}
        providers:
          custom: {method: do, name: class, params: [for, in]}
          amplitude: {name: return, params: [properties]}
      name: {}
      properties: {}
      eventType: {}
      play podcast: {}
      play_podcast: {}
      PlayPodcast: {}
      providerParameters: {}
    events:
      deep:
        properties:
          level: \(deepObject(depth: 12))
        providers:
          custom: {name: deep, params: [level]}
    states:
      Type: {properties: {value: {type: [string, "null"], required: true}}}
    timed:
      while: {}

    """

  /// An object `depth` levels deep, each level with a scalar and the next level.
  static func deepObject(depth: Int) -> String {
    var text = "{type: string, required: true, maxLength: 3}"
    for level in stride(from: depth, to: 0, by: -1) {
      text =
        "{type: object, required: true, properties: {value\(level): {type: integer, minimum: \(level)}, "
        + "next: \(text)}}"
    }
    return text
  }

  /// `count` events, each with a few properties and an Amplitude call (Firebase allows 500 event names).
  static func manyEvents(_ count: Int) -> String {
    var text = "plan: Many\nversion: 1\nevents:\n"
    for index in 0..<count {
      text += """
          event_\(index):
            properties:
              id: {type: string, required: true}
              amount: {type: number, minimum: 0}
              kind: {type: string, enum: [a, b]}
            providers:
              amplitude: {name: event_\(index), params: [id]}

        """
    }
    return text
  }
}
