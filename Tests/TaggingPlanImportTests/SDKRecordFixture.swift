import AnalyticsHub
import Foundation
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
