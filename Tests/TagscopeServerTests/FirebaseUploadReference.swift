import AnalyticsHub

@testable import TagscopeServer

/// The records of a Firebase upload decoded whole by SwiftProtobuf, as one tree of the generated
/// messages (`AppMeasurement.pb.swift`), with its unknown fields collected message by message: the
/// reference the endpoint's index and its wire walk (``FirebaseWireWalk``) must match.
enum FirebaseUploadReference {
  static func records(_ body: [UInt8]) throws -> [IngestedEvent] {
    let batch = try FirebaseUploadEndpoint.decodeBatch(body).get()
    var unknown: [String] = []
    FirebaseUnknownFields.collect(batch, place: "upload", into: &unknown)
    for (index, bundle) in batch.bundle.enumerated() {
      FirebaseUnknownFields.collect(bundle, place: "bundle \(index + 1)", into: &unknown)
      for (position, event) in bundle.event.enumerated() {
        FirebaseUnknownFields.collect(
          event: event, place: "bundle \(index + 1) event \(position + 1)", into: &unknown)
      }
      for (position, property) in bundle.userProperty.enumerated() {
        let place = "bundle \(index + 1) user property \(position + 1)"
        FirebaseUnknownFields.collect(property, place: place, into: &unknown)
      }
    }
    var events: [IngestedEvent] = []
    for (index, bundle) in batch.bundle.enumerated() {
      let identity = FirebaseUploadIdentity.of(bundle)
      let common = FirebaseUploadRecords.common(bundle, unknownNote: FirebaseUploadRecords.note(unknown))
      for (position, event) in bundle.event.enumerated() {
        events.append(
          FirebaseUploadRecords.record(
            event, identity: identity, common: common, place: "bundle \(index + 1) event \(position + 1)"))
      }
      for (position, property) in bundle.userProperty.enumerated() {
        events.append(
          FirebaseUploadRecords.record(
            property, identity: identity, common: common,
            place: "bundle \(index + 1) user property \(position + 1)"))
      }
    }
    FirebaseUnknownFields.account(unknown).add(to: &events)
    return events
  }
}
