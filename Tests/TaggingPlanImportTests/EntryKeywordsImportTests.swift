import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanImport
import TaggingPlanReports
import TagscopeRecording
import XCTest

/// An event schema's own keywords (`allOf` of object schemas, `anyOf`, `minProperties`…) are
/// carried into its entry in every format, or warned about with their place: traffic breaking a
/// constraint that came from them is flagged, traffic meeting them is not.
final class EntryKeywordsImportTests: XCTestCase {
  /// `plan`'s violations for in-app calls of `name` with each of `messages` (seq 1, 2…), as
  /// `seq rule message`.
  private func judge(
    _ plan: ImportedPlan, provider: String, method: String, name: String, _ messages: [Properties]
  ) throws -> [String] {
    var validator = PlanValidator(plan: try PlanLoader.load(yaml: plan.yaml, file: "imported.yaml"))
    return messages.enumerated().flatMap { index, parameters in
      let record = Record(
        seq: UInt64(index + 1), time: Date(timeIntervalSince1970: 1_800_000_000), kind: .event, name: name,
        outputs: [
          ProviderOutput(
            provider: provider, status: .sent,
            calls: [CallDescription(method: method, name: name, parameters: parameters)])
        ])
      return validator.validate(record).map {
        "\($0.seq) \($0.rule.rawValue) \($0.message.split(separator: ", plan line")[0])"
      }
    }
  }

  private let pageDelete: Properties = [
    "$schema": "/mediawiki/page/delete/1.0.0",
    "meta": ["stream": "mediawiki.page-delete", "dt": "2020-07-01T00:00:00Z"],
    "database": "examplewiki", "page_id": 123, "page_title": "example_page_title", "page_is_redirect": false,
    "page_namespace": 0, "rev_id": 123, "rev_count": 4,
  ]

  private func changed(_ base: Properties, _ key: String, _ value: PropertyValue?) -> Properties {
    var result = base
    result[key] = value
    return result
  }

  func testWikimediasAllOfOfAnOutsideFragmentAndPropertiesCarriesThePropertiesAndWarnsTheReference()
    throws
  {
    let plan = try importFixtures(
      ["wikimedia/page-delete.yaml"], options: ImportOptions(format: .jsonschema, provider: "wikimedia"))
    let entry = try XCTUnwrap(plan.catalogue.calls.first)
    XCTAssertEqual(entry.key, "mediawiki/page/delete")
    XCTAssertEqual(entry.params.map(\.name), ["chronology_id", "comment", "parsedcomment", "rev_count"])
    XCTAssertNil(entry.keywords)
    XCTAssertEqual(
      relativeWarnings(plan),
      [
        #"wikimedia/page-delete.yaml:7:5: warning: $ref "/fragment/mediawiki/page/common/1.0.0#" (allOf[0].$ref) is outside the document: the property is not checked by Tagscope"#
      ])
    let found = try judge(
      plan, provider: "wikimedia", method: "logEvent", name: "mediawiki/page/delete",
      [pageDelete, changed(pageDelete, "rev_count", "4")])
    XCTAssertEqual(
      found,
      [
        "2 wrong-type mediawiki/page/delete: wikimedia logEvent mediawiki/page/delete parameter rev_count is a string (\"4\")"
      ])
  }

  func testWikimediasBundledFragmentMergesIntoTheEntryAndItsConstraintsAreChecked() throws {
    let plan = try importFixtures(
      ["wikimedia/page-delete-bundled.yaml"],
      options: ImportOptions(format: .jsonschema, provider: "wikimedia"))
    let entry = try XCTUnwrap(plan.catalogue.calls.first)
    XCTAssertEqual(
      entry.params.map(\.name),
      [
        "$schema", "meta", "database", "page_id", "page_title", "page_namespace", "page_is_redirect",
        "rev_id",
        "chronology_id", "comment", "parsedcomment", "rev_count",
      ])
    XCTAssertEqual(entry.params.filter(\.constraints.required).count, 8)
    XCTAssertNil(entry.keywords)
    XCTAssertEqual(relativeWarnings(plan), [])
    let found = try judge(
      plan, provider: "wikimedia", method: "logEvent", name: "mediawiki/page/delete",
      [
        pageDelete, changed(pageDelete, "page_id", -1), changed(pageDelete, "database", nil),
        changed(pageDelete, "rev_count", "4"),
        changed(pageDelete, "meta", ["stream": "mediawiki.page-delete", "dt": "yesterday"]),
      ])
    XCTAssertEqual(
      found,
      [
        "2 invalid-value mediawiki/page/delete: wikimedia logEvent mediawiki/page/delete parameter page_id is -1",
        "3 missing-param mediawiki/page/delete: wikimedia logEvent mediawiki/page/delete parameter database is missing",
        "4 wrong-type mediawiki/page/delete: wikimedia logEvent mediawiki/page/delete parameter rev_count is a string (\"4\")",
        "5 invalid-value mediawiki/page/delete: wikimedia logEvent mediawiki/page/delete parameter meta.dt is \"yesterday\"",
      ])
  }

  func testAPropertyTwoBranchesConstrainHoldsBoth() throws {
    let text = """
      {"title": "Rated", "allOf": [
        {"properties": {"stars": {"type": "integer", "maximum": 10}, "by": {"enum": ["a", "b"]}}, "required": ["stars"]},
        {"properties": {"stars": {"minimum": 1, "maximum": 5}, "by": {"enum": ["b", "c"]}}},
        {"allOf": [{"properties": {"note": {"type": "string"}}, "required": ["note"]}]}
      ]}
      """
    let plan = try importText(text, file: "rated.json", format: .jsonschema, provider: "amplitude")
    let entry = try XCTUnwrap(plan.catalogue.calls.first)
    XCTAssertEqual(entry.params.map(\.name), ["stars", "by", "note"])
    XCTAssertEqual(relativeWarnings(plan), [])
    let found = try judge(
      plan, provider: "amplitude", method: "track", name: "Rated",
      [
        ["stars": 3, "by": "b", "note": "ok"], ["stars": 7, "by": "b", "note": "ok"],
        ["stars": 0, "by": "b", "note": "ok"], ["stars": 3, "by": "a", "note": "ok"],
        ["by": "c", "note": "ok"], ["stars": 3, "note": 4],
      ])
    guard found.count == 6 else { return XCTFail("expected 6 violations: \(found)") }
    XCTAssertEqual(found.map { String($0.prefix(2)) }, ["2 ", "3 ", "4 ", "5 ", "5 ", "6 "], "\(found)")
    XCTAssertTrue(found[0].contains("parameter stars is 7"), "\(found)")
    XCTAssertTrue(found[4].contains("parameter stars is missing"), "\(found)")
  }

  func testAReferenceAndItsSiblingsBothHold() throws {
    // The same mistake one level down: a `$ref` with sibling keywords (2019-09 on) means both.
    let text = """
      {"title": "Rated", "$defs": {"small": {"type": "integer", "maximum": 5, "enum": [1, 2, 3, 4, 5, 6]}},
       "properties": {"stars": {"$ref": "#/$defs/small", "maximum": 10, "enum": [5, 6, 7]}}}
      """
    let plan = try importText(text, file: "rated.json", format: .jsonschema, provider: "amplitude")
    XCTAssertEqual(relativeWarnings(plan), [])
    let found = try judge(
      plan, provider: "amplitude", method: "track", name: "Rated", [["stars": 5], ["stars": 6], ["stars": 7]])
    XCTAssertEqual(found.map { String($0.prefix(2)) }, ["2 ", "3 "], "\(found)")
  }

  func testTheOtherEventLevelKeywordsAreWrittenOnTheEntryAndChecked() throws {
    let text = """
      {"title": "Shared", "type": "object",
       "properties": {"via": {"type": "string"}},
       "anyOf": [{"required": ["to"]}, {"required": ["url"]}],
       "minProperties": 2,
       "dependentRequired": {"message": ["to"]},
       "patternProperties": {"^x_": {"type": "string"}},
       "allOf": [{"properties": {"via": {"maxLength": 8}}, "additionalProperties": {"type": "string"}}],
       "enum": [{"via": "fax", "to": "a"}, {"via": "mail", "to": "b"}, {"via": "web", "url": "u"}]}
      """
    let plan = try importText(text, file: "shared.json", format: .jsonschema, provider: "amplitude")
    XCTAssertEqual(relativeWarnings(plan), [])
    let yaml = relativeYAML(plan)
    for line in [
      "        minProperties: 2\n", "        anyOf: [", "        dependentRequired: {",
      "        patternProperties: {",
      "        allOf: [",
    ] {
      XCTAssertTrue(yaml.contains(line), "\(line) in \(yaml)")
    }
    let found = try judge(
      plan, provider: "amplitude", method: "track", name: "Shared",
      [
        ["via": "mail", "to": "b"], ["via": "web"], ["via": "mail", "to": "b", "message": "m", "x_y": 1],
        ["via": "fax", "to": "b"], ["via": "web", "url": "u"],
      ])
    XCTAssertEqual(found.map { String($0.prefix(2)) }, ["2 ", "3 ", "3 ", "4 "], "\(found)")
  }

  func testIgluSegmentAndMParticleCarryTheirObjectsKeywords() throws {
    let iglu = try importText(
      """
      {"self": {"vendor": "com.acme", "name": "share", "format": "jsonschema", "version": "1-0-0"},
       "type": "object", "properties": {"to": {"type": "string"}, "url": {"type": "string"}},
       "anyOf": [{"required": ["to"]}, {"required": ["url"]}]}
      """, file: "com.acme/share/jsonschema/1-0-0", format: .iglu)
    XCTAssertEqual(iglu.catalogue.calls.first?.keywords?.anyOf.count, 2)
    let name = "iglu:com.acme/share/jsonschema/1-0-0"
    XCTAssertEqual(
      try judge(
        iglu, provider: "snowplow", method: "trackSelfDescribingEvent", name: name, [["to": "a"], [:]]
      )
      .map { String($0.prefix(2)) }, ["2 "])

    let segment = try importText(
      #"[{"type": "TRACK", "key": "Shared", "version": 1, "jsonSchema": {"properties": {"properties": {"#
        + #""allOf": [{"properties": {"to": {"type": "string"}}, "required": ["to"]}], "minProperties": 2}}}}]"#,
      format: .segment)
    let shared = try XCTUnwrap(segment.catalogue.calls.first)
    XCTAssertEqual(shared.params.map(\.name), ["to"])
    XCTAssertEqual(shared.keywords?.minProperties, 2)
    XCTAssertEqual(
      try judge(
        segment, provider: "segment", method: "track", name: "Shared", [["to": "a", "v": 1], ["to": "a"]]
      )
      .map { String($0.prefix(2)) }, ["2 "])

    let mparticle = try importText(
      """
      {"data_points": [
        {"match": {"type": "custom_event", "criteria": {"event_name": "Play", "custom_event_type": "media"}},
         "validator": {"type": "json_schema", "definition": {"properties": {"data": {"properties": {
           "custom_attributes": {"allOf": [{"properties": {"title": {"type": "string"}}, "required": ["title"]}],
                                 "maxProperties": 1}}}}}}}]}
      """, format: .mparticle)
    let play = try XCTUnwrap(mparticle.catalogue.calls.first)
    XCTAssertEqual(play.params.map(\.name), ["title"])
    XCTAssertEqual(
      try judge(
        mparticle, provider: "mparticle", method: "logEvent", name: "Play",
        [["title": "t"], ["x": "t", "y": "u"]]
      )
      .count, 2)
  }

  func testSegmentsCommonRulesAndAnEventsRulesBothHold() throws {
    // Segment checks an event against its common rules and its own: both bounds apply.
    let plan = try importText(
      #"[{"type": "COMMON", "version": 1, "jsonSchema": {"properties": {"properties": {"properties": {"#
        + #""plan": {"type": "string", "maxLength": 3}}}}}},"#
        + #" {"type": "TRACK", "key": "Signed Up", "version": 1, "jsonSchema": {"properties": {"properties": {"#
        + #""properties": {"plan": {"type": "string", "maxLength": 10}}}}}}]"#,
      format: .segment)
    let found = try judge(
      plan, provider: "segment", method: "track", name: "Signed Up", [["plan": "pro"], ["plan": "team"]])
    XCTAssertEqual(found.map { String($0.prefix(2)) }, ["2 "], "\(found)")
  }

  func testWhatAnEntryCannotTakeOfTheWholeObjectIsWarnedWithItsPlace() throws {
    let plan = try importText(
      #"{"title": "Odd", "type": "array", "items": {"type": "string"}, "properties": {"a": {}}}"#,
      file: "odd.json", format: .jsonschema, provider: "amplitude")
    XCTAssertEqual(
      relativeWarnings(plan),
      [
        "odd.json:1:1: warning: type, items of the object holding the parameters ((root)) is not checked by Tagscope: an entry checks its parameters as an object"
      ])
  }

  func testSegmentsCommonRulesKeywordsAreWarnedWithTheirPlace() throws {
    let plan = try importText(
      #"[{"type": "COMMON", "version": 1, "jsonSchema": {"properties": {"properties": {"minProperties": 1}}}},"#
        + #" {"type": "TRACK", "key": "Shared", "version": 1, "jsonSchema": {}}]"#,
      format: .segment)
    XCTAssertEqual(
      relativeWarnings(plan).filter { $0.contains("common") },
      [
        "plan.json:1:2: warning: the keywords of the common rules' properties object ([0].jsonSchema.properties.properties) are not checked by Tagscope"
      ])
  }
}
