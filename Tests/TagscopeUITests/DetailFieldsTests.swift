import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeUI

/// The detail view (`enter` on a record) shows the record's recording line indented: the same
/// fields, names and order, unknown fields kept, plan findings merged onto the outputs.
final class DetailFieldsTests: XCTestCase {
  func testDetailKeepsRawPayloadsAndUnknownFields() throws {
    let line =
      #"{"seq":3,"time":"2026-11-21T10:00:01.000Z","kind":"event","name":"Order Completed","properties":{},"#
      + #""context":{"history":[]},"outputs":[{"provider":"segment","status":"sent"}],"source":"127.0.0.1:5123","#
      + #""raw":"{\"event\":\"Order Completed\",\"note\":\"\u001b[31m\"}","build":"1.2.3"}"#
    let record = try RecordLineDecoder.decodeRecord(line)
    XCTAssertEqual(record.extra["build"], "1.2.3")
    let json = detailLines(record).joined(separator: "\n")
    XCTAssertTrue(json.contains(#""source": "127.0.0.1:5123""#), json)
    XCTAssertTrue(json.contains(#""raw": "{\"event\":\"Order Completed\",\"note\":\"\u001b[31m\"}""#), json)
    XCTAssertTrue(json.contains(#""build": "1.2.3""#), json)
    XCTAssertTrue(json.contains(#""properties": {},"#), "an empty object stays on its line: \(json)")
    XCTAssertTrue(json.contains(#""history": []"#), "an empty array stays on its line: \(json)")
    XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(json.utf8)))
  }

  func testDetailIsTheRecordingLineIndentedAndParsesBackToTheRecord() throws {
    let line =
      #"{"seq":7,"time":"2026-11-21T10:00:07.250Z","kind":"event","name":"play_podcast","eventType":"ua","#
      + #""properties":{"podcast":{"id":42,"tags":["news",{"lang":"fr"}]},"rating":4.5},"#
      + #""context":{"screen":"player","history":["home","player"],"session":{"id":"s-9","#
      + #""state":"authenticated","user":"u-1","properties":{"plan":"premium"},"#
      + #""device":{"model":"iPhone","os":[17,4]}},"timedEvents":["listen"],"#
      + #""locale":{"region":"FR","languages":["fr","en"]}},"#
      + #""outputs":[{"provider":"firebase","status":"sent","calls":[{"method":"logEvent","#
      + #""name":"play_podcast","parameters":{"podcast_id":42}}],"violations":[{"rule":"firebase.name","#
      + #""message":"name too long","consequence":"warning","callIndex":0,"errorCode":7}],"#
      + #""sdk":{"version":"11.0","flags":[true,null]}},"#
      + #"{"provider":"segment","status":"dropped","reason":"consent"}],"#
      + #""issues":[{"code":"unknownScreen","message":"screen not declared"}],"source":"127.0.0.1:5123","#
      + #""raw":"{\"e\":1}","build":{"number":42,"channels":["beta",{"nested":{"deep":1.5}}]}}"#
    let record = try RecordLineDecoder.decodeRecord(line)
    XCTAssertEqual(RecordLineEncoder.line(record), line, "the decoder keeps every field of the line")
    let wrongName = RecordViolation(
      rule: "plan.wrong-name", message: "expected play_episode", consequence: "error")
    let unplanned = RecordViolation(
      rule: "plan.unplanned-tag", message: "not planned", consequence: "warning")
    var shown = record
    shown.outputs[0].violations.append(wrongName)
    shown.issues.append(RecordIssue(code: "plan", message: "plan: not planned"))

    let lines = detailLines(
      record,
      findings: [
        PlanFinding(provider: "firebase", violation: wrongName),
        PlanFinding(provider: nil, violation: unplanned),
      ])
    let json = lines.joined(separator: "\n")

    XCTAssertEqual(
      try fields(JSONParser.parse(json)), try fields(JSONParser.parse(RecordLineEncoder.line(shown))),
      "the recording line's fields, names, order and values, the plan's findings merged in")
    XCTAssertEqual(try RecordLineDecoder.decodeRecord(json), shown, "the detail parses back to the record")
    XCTAssertEqual(lines.first, "{")
    XCTAssertEqual(lines.last, "}")
    for expected in [
      #"  "seq": 7,"#, #"          "consequence": "warning","#, #"          "errorCode": 7"#,
      #"          "consequence": "error""#, #"      "code": "unknownScreen","#,
      #"        "model": "iPhone","#,
      #"          "deep": 1.5"#, #"        "flags": ["#, #"      "languages": ["#,
    ] {
      XCTAssertTrue(lines.contains(expected), "no line \(expected) in\n\(json)")
    }
    XCTAssertFalse(json.contains("severity"), json)
  }
}

/// The detail view's lines for `record` with the plan's `findings` on it, as `enter` loads them.
func detailLines(_ record: Record, findings: [PlanFinding] = []) -> [String] {
  let store = Fixtures.store([record])
  for finding in findings { store.plan.add(finding, at: 0) }
  guard case .detailLoaded(_, _, _, let lines) = EffectRunner(source: store.source).run(.loadDetail(0)).first
  else {
    XCTFail("no detail")
    return []
  }
  return lines.map(\.text)
}

/// Every key and element of `value` by its path, in the order written, leaves with their JSON.
private func fields(_ value: PropertyValue, at path: String = "") -> [String] {
  switch value {
  case .object(let properties):
    return properties.flatMap { [path + "/" + $0.key] + fields($0.value, at: path + "/" + $0.key) }
  case .array(let values):
    return values.enumerated().flatMap {
      ["\(path)/\($0.offset)"] + fields($0.element, at: "\(path)/\($0.offset)")
    }
  default:
    return [path + " = " + JSONText.value(value)]
  }
}
