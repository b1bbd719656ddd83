import AnalyticsHub
import TaggingPlan
import TagscopeRecording

extension ViolationEvidence {
  /// `expected`: what the plan expected, as a JSON object (`null` for an unplanned tag; for
  /// personal data, the kinds the plan allows at its place, `"pii":[]` when none).
  func writeExpected(into out: inout JSONWriter) {
    switch self {
    case .unplanned:
      out.raw("null")
    case .property(let name, let rule, _, let planned, _):
      out.object { out in
        out.key("property", first: true)
        out.string(name)
        Self.write(rule, planned: planned, listedAs: "properties", into: &out)
      }
    case .screen(let allowed, _):
      out.object { out in
        out.key("screens", first: true)
        out.stringArray(allowed)
      }
    case .call(let expected, let output):
      out.object { out in
        out.key("provider", first: true)
        out.string(output.provider)
        out.key("call")
        if expected.isNone { out.raw("null") } else { Self.write(expected, into: &out) }
      }
    case .providerRule(let rule, let output):
      out.object { out in
        out.key("provider", first: true)
        out.string(output.provider)
        out.key("rule")
        out.string(rule.rule)
      }
    case .unplannedCall(let provider, _, let catalogue):
      out.object { out in
        out.key("provider", first: true)
        out.string(provider)
        out.key("catalogue")
        out.array(catalogue.entries) { $0.string($1.label) }
      }
    case .catalogueParam(let provider, _, let entry, let path, let rule, _, let planned, _):
      out.object { out in
        out.key("provider", first: true)
        out.string(provider)
        out.key("call")
        out.string(entry.label)
        out.key("param")
        out.string(path)
        Self.write(rule, planned: planned, listedAs: "params", into: &out)
      }
    case .journey(let journey):
      out.object { out in
        out.key("rule", first: true)
        out.string(journey.rule)
        out.key("expects")
        out.string(journey.expected)
      }
    case .personalData(let finding, let allowed):
      out.object { out in
        Self.write(finding, into: &out)
        out.key("pii")
        out.stringArray(allowed.kinds.map(\.rawValue))
      }
    }
  }

  /// `actual`: what the record carried, as a JSON object, with the personal data the detectors
  /// find masked (``PIIMask``; a personal-data finding's value only by kind and length).
  func writeActual(into out: inout JSONWriter) {
    switch self {
    case .unplanned(let section, let name):
      out.object { out in
        out.key("section", first: true)
        out.string(section.key)
        out.key("name")
        out.string(name)
      }
    case .property(let name, _, let value, _, _):
      out.object { out in
        out.key("property", first: true)
        out.string(name)
        Self.write(value.map { PIIMask.value($0, key: name) }, into: &out)
      }
    case .screen(_, let actual):
      out.object { out in
        out.key("screen", first: true)
        out.string(orNull: actual)
      }
    case .call(_, let output):
      Self.write(output, message: nil, into: &out)
    case .providerRule(let rule, let output):
      Self.write(output, message: rule.message, into: &out)
    case .unplannedCall(let provider, let call, _):
      out.object { out in
        out.key("provider", first: true)
        out.string(provider)
        out.key("call")
        Self.write(call, into: &out)
      }
    case .catalogueParam(let provider, let call, _, let path, _, let value, _, _):
      out.object { out in
        out.key("provider", first: true)
        out.string(provider)
        out.key("call")
        Self.write(call, into: &out)
        out.key("param")
        out.string(path)
        Self.write(value.map { PIIMask.value($0, key: path) }, into: &out)
      }
    case .journey(let journey):
      out.object { out in
        out.key("found", first: true)
        out.string(journey.actual)
        out.key("record")
        Self.write(journey.record, into: &out)
        out.key(journey.otherRole, first: false)
        if let other = journey.other { Self.write(other, into: &out) } else { out.raw("null") }
      }
    case .personalData(let finding, _):
      out.object { out in
        Self.write(finding, into: &out)
        out.key("place")
        out.string(finding.place)
        out.key("kind")
        out.string(finding.kind.rawValue)
        out.key("length")
        out.int(finding.length)
        out.key("value")
        out.string("<\(finding.kind.rawValue) masked, \(finding.length) characters>")
      }
    }
  }

  /// `"provider","call","param"`: where a personal-data finding is (the call by method and name).
  private static func write(_ finding: PrivacyFinding, into out: inout JSONWriter) {
    out.key("provider", first: true)
    out.string(finding.provider)
    out.key("call")
    out.string(finding.callLabel)
    out.key("param")
    out.string(finding.path)
  }

  /// `{"seq","name","file","line","time","source","session"}`: a record a journey finding names
  /// (`file` and `line` null in a live session), its place in the violation's words.
  private static func write(_ record: JourneyRecord, into out: inout JSONWriter) {
    out.object { out in
      out.key("seq", first: true)
      out.unsigned(record.seq)
      out.key("name")
      out.string(record.name)
      out.key("file")
      out.string(orNull: record.place?.file)
      out.key("line")
      out.int(orNull: record.place?.line)
      out.key("time")
      out.timestamp(record.time)
      out.key("source")
      out.string(orNull: record.source)
      out.key("session")
      out.string(orNull: record.session)
    }
  }

  /// `,"constraints":{…}`, or for a key the plan does not list `,"planned":false,"<listedAs>":[…]`
  /// naming the keys it does.
  private static func write(
    _ rule: PropertyRule?, planned: [String], listedAs: StaticString, into out: inout JSONWriter
  ) {
    if let rule {
      out.key("constraints")
      rule.writeJSONSchema(into: &out)
    } else {
      out.key("planned")
      out.bool(false)
      out.key(listedAs)
      out.stringArray(planned)
    }
  }

  /// `,"present":…,"value":…`.
  private static func write(_ value: PropertyValue?, into out: inout JSONWriter) {
    out.key("present")
    out.bool(value != nil)
    out.key("value")
    out.value(value ?? .null)
  }

  /// `{"name","method","params":{name: {"present":true} | {"value":…} | constraints}}`.
  private static func write(_ expected: ExpectedCall, into out: inout JSONWriter) {
    out.object { out in
      out.key("name", first: true)
      out.string(orNull: expected.name)
      out.key("method")
      out.string(orNull: expected.method)
      out.key("params")
      out.object { out in
        for (index, param) in expected.params.enumerated() {
          out.key(param.name, first: index == 0)
          switch param.expectation {
          case .present:
            out.object { out in
              out.key("present", first: true)
              out.bool(true)
            }
          case .value(let value):
            out.object { out in
              out.key("value", first: true)
              out.value(value)
            }
          case .constrained(let rule): rule.writeJSONSchema(into: &out)
          }
        }
      }
    }
  }

  /// `{"method","name","parameters"}`.
  private static func write(_ call: CallDescription, into out: inout JSONWriter) {
    out.object { out in
      out.key("method", first: true)
      out.string(call.method)
      out.key("name")
      out.string(orNull: call.name)
      out.key("parameters")
      out.object(PIIMask.properties(call.parameters))
    }
  }

  /// `{"provider","status","reason","calls":[…]}`, with `"message"` for a provider rule.
  private static func write(_ output: ProviderOutput, message: String?, into out: inout JSONWriter) {
    out.object { out in
      out.key("provider", first: true)
      out.string(output.provider)
      out.key("status")
      out.string(output.status.rawValue)
      out.key("reason")
      out.string(orNull: output.reason)
      out.key("calls")
      out.array(output.calls) { out, call in write(call, into: &out) }
      if let message {
        out.key("message")
        out.string(message)
      }
    }
  }
}
