import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanImport
import TagscopeRecording

/// A record as `listen` makes it from one SDK message (it keeps the raw payload); a call named
/// as its method is a user operation, which SDK calls leave unnamed (`identify`).
func fromSDK(
  _ seq: UInt64, _ provider: String, _ method: String, _ name: String, _ message: Properties
)
  -> Record
{
  Record(
    seq: seq, time: Date(timeIntervalSince1970: 1_800_000_000), kind: .event, name: name,
    outputs: [
      ProviderOutput(
        provider: provider, status: .sent,
        calls: [CallDescription(method: method, name: name == method ? nil : name, parameters: message)])
    ], raw: "{}")
}

/// Each violation `imported`'s plan finds in `records`, as `seq rule message` (without the plan line).
func judge(_ records: [Record], _ imported: ImportedPlan) throws -> [String] {
  var validator = PlanValidator(plan: try PlanLoader.load(yaml: imported.yaml, file: "imported.yaml"))
  return records.flatMap { validator.validate($0) }.map {
    "\($0.seq) \($0.rule.rawValue) \($0.message.split(separator: ", plan line")[0])"
  }
}
