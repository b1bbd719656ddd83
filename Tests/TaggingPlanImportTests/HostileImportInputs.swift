import Foundation
import XCTest

/// The hostile sources of issue 42 (item 4), built in a temporary folder: `$ref` chains in each
/// format that has them, references that each name the next twice, a variable repeated in every
/// description, nesting as deep as a document may go.
enum HostileImportInputs {
  /// A JSON Schema whose property `a` starts a chain of `length` `$ref`s (`d0` → `d1` → …).
  static func refChainSchema(length: Int) -> String {
    #"{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"Chained","type":"object","#
      + ##""properties":{"a":{"$ref":"#/$defs/d0"}},"$defs":{"## + chain(length, prefix: "#/$defs/") + "}}"
  }

  /// A Segment tracking plan (Config API) whose event's property starts a chain of `length`
  /// `$ref`s in its rules' `definitions`.
  static func refChainSegment(length: Int) -> String {
    #"{"display_name":"Chained","rules":{"events":[{"name":"Chained","version":1,"rules":{"#
      + ##""$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"properties":{"##
      + ##""type":"object","properties":{"a":{"$ref":"#/definitions/d0"}}}},"definitions":{"##
      + chain(length, prefix: "#/definitions/") + "}}}]}}"
  }

  /// An Iglu schema (`com.acme/chained/jsonschema/1-0-0`) whose property starts a chain of
  /// `length` `$ref`s in its `definitions`.
  static func refChainIglu(length: Int) -> String {
    ##"{"$schema":"http://iglucentral.com/schemas/com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0#","##
      + #""self":{"vendor":"com.acme","name":"chained","format":"jsonschema","version":"1-0-0"},"#
      + ##""type":"object","properties":{"a":{"$ref":"#/definitions/d0"}},"definitions":{"##
      + chain(length, prefix: "#/definitions/") + "}}"
  }

  /// `"d0":{"$ref":"PREFIXd1"},…,"dLENGTH":{"type":"string"}`.
  private static func chain(_ length: Int, prefix: String) -> String {
    (0..<length).map { #""d\#($0)":{"$ref":"\#(prefix)d\#($0 + 1)"}"# }.joined(separator: ",")
      + #","d\#(length)":{"type":"string"}"#
  }

  /// A JSON Schema of `events` events (in `$defs`), each with a property referencing `d0`, where
  /// each of `levels` `definitions` has two properties referencing the next: 2^levels nodes per
  /// reference.
  static func doubledReferences(levels: Int, events: Int) -> String {
    let definitions = (0..<levels).map {
      ##""d\##($0)":{"type":"object","properties":{"a":{"$ref":"#/definitions/d\##($0 + 1)"},"b":{"$ref":"#/definitions/d\##($0 + 1)"}}}"##
    }
    let schemas = (0..<events).map {
      ##""E\##($0)":{"type":"object","properties":{"p":{"$ref":"#/definitions/d0"}}}"##
    }
    return #"{"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"#
      + schemas.joined(separator: ",") + #"},"definitions":{"#
      + (definitions + [#""d\#(levels)":{"type":"string"}"#]).joined(separator: ",") + "}}"
  }

  /// A JSON document `depth` arrays deep (`[[[…]]]`) inside an event's `enum`.
  static func deepEnum(depth: Int) -> String {
    #"{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"Deep","type":"object","#
      + #""properties":{"a":{"enum":["# + String(repeating: "[", count: depth)
      + String(repeating: "]", count: depth)
      + "]}}}"
  }

  /// The files of a rudder-cli project (name, text): one tracking plan with a rule per event,
  /// its `properties`, `events` and `custom-types` files, and the rest as given.
  static func rudderProject(
    events: [String], properties: [String], customTypes: [String] = [], rules: [String],
    others: [(String, String)] = []
  ) -> [(String, String)] {
    var files: [(String, String)] = [
      (
        "events.yaml",
        "version: rudder/0.1\nkind: events\nmetadata:\n  name: ev\nspec:\n  events:\n"
          + events.joined()
      ),
      (
        "properties.yaml",
        "version: rudder/0.1\nkind: properties\nmetadata:\n  name: pr\nspec:\n  properties:\n"
          + properties.joined()
      ),
      (
        "tp.yaml",
        "version: rudder/0.1\nkind: tp\nmetadata:\n  name: tp\nspec:\n  id: tp\n  display_name: Hostile\n"
          + "  rules:\n" + rules.joined()
      ),
    ]
    if !customTypes.isEmpty {
      files.append(
        (
          "custom-types.yaml",
          "version: rudder/0.1\nkind: custom-types\nmetadata:\n  name: ct\nspec:\n  types:\n"
            + customTypes.joined()
        ))
    }
    return files + others
  }

  /// A rule of event `event` with the properties `properties` (ids in the `pr` group).
  static func rudderRule(_ event: String, properties: [String]) -> String {
    "    - type: event_rule\n      id: \(event)_rule\n      event:\n        $ref: \"#/events/ev/\(event)\"\n"
      + "      properties:\n"
      + properties.map { "        - $ref: \"#/properties/pr/\($0)\"\n" }.joined()
  }

  /// A rudder-cli project whose property `p` is of custom type `t0`, each of `length` custom
  /// types being the next (`t0` → `t1` → …).
  static func rudderCustomTypeChain(length: Int) -> [(String, String)] {
    rudderProject(
      events: ["    - id: e\n      name: Chained\n      event_type: track\n"],
      properties: ["    - id: p\n      name: p\n      type: \"#/custom-types/ct/t0\"\n"],
      customTypes: (0..<length).map {
        "    - id: t\($0)\n      name: T\($0)\n      type: \"#/custom-types/ct/t\($0 + 1)\"\n"
      }
        + ["    - id: t\(length)\n      name: T\(length)\n      type: string\n"],
      rules: [rudderRule("e", properties: ["p"])])
  }

  /// A rudder-cli project whose properties `a0` and `b0` each have two nested properties, `a1`
  /// and `b1`, and so on for `levels` levels: 2^levels properties from one reference.
  static func rudderDoubledProperties(levels: Int) -> [(String, String)] {
    let properties = (0..<levels).flatMap { level in
      ["a", "b"].map {
        "    - id: \($0)\(level)\n      name: \($0)\n      type: object\n      properties:\n"
          + "        - $ref: \"#/properties/pr/a\(level + 1)\"\n        - $ref: \"#/properties/pr/b\(level + 1)\"\n"
      }
    }
    let leaves = ["a", "b"].map { "    - id: \($0)\(levels)\n      name: \($0)\n      type: string\n" }
    return rudderProject(
      events: ["    - id: e\n      name: Doubled\n      event_type: track\n"],
      properties: properties + leaves, rules: [rudderRule("e", properties: ["a0"])])
  }

  /// A rudder-cli project of `events` events whose descriptions are each `{{ .BIG }}`, a variable
  /// of `valueBytes` bytes set in a `.vars.yaml` file.
  static func rudderRepeatedVariable(events: Int, valueBytes: Int) -> [(String, String)] {
    rudderProject(
      events: (0..<events).map {
        "    - id: e\($0)\n      name: Event \($0)\n      event_type: track\n      description: \"{{ .BIG }}\"\n"
      },
      properties: ["    - id: p\n      name: p\n      type: string\n"],
      rules: (0..<events).map { rudderRule("e\($0)", properties: ["p"]) },
      others: [("big.vars.yaml", "BIG: " + String(repeating: "v", count: valueBytes) + "\n")])
  }

  /// Writes `files` (name, text) into a new temporary folder; its path.
  static func folder(_ files: [(String, String)]) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-hostile-import-\(UUID().uuidString)")
    for (name, text) in files {
      let url = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    return folder
  }
}
