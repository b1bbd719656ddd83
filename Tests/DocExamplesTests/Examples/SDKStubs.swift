import Foundation

// Stand-ins for the real SDKs the doc comments' adapters call, with the signatures of their APIs
// (Firebase's `Analytics`, Amplitude-Swift's `Amplitude` and `Revenue`), so the adapters compile
// as an app would write them. Each call is logged for the tests.

/// What the stand-ins were called with, in order.
final class SDKCallLog: @unchecked Sendable {
  static let shared = SDKCallLog()
  private let lock = NSLock()
  private var entries: [String] = []

  func append(_ entry: String) {
    lock.lock()
    entries.append(entry)
    lock.unlock()
  }

  /// Returns the entries so far and forgets them.
  func take() -> [String] {
    lock.lock()
    defer { lock.unlock() }
    let taken = entries
    entries = []
    return taken
  }
}

/// Firebase's `Analytics` (FirebaseAnalytics).
enum Analytics {
  static func logEvent(_ name: String, parameters: [String: Any]?) {
    SDKCallLog.shared.append("logEvent \(name) \(parameters?.keys.sorted() ?? [])")
  }
  static func setUserProperty(_ value: String?, forName name: String) {
    SDKCallLog.shared.append("setUserProperty \(name)=\(value ?? "nil")")
  }
  static func setUserID(_ userID: String?) { SDKCallLog.shared.append("setUserID \(userID ?? "nil")") }
  static func setDefaultEventParameters(_ parameters: [String: Any]?) {
    SDKCallLog.shared.append("setDefaultEventParameters")
  }
  static func setAnalyticsCollectionEnabled(_ enabled: Bool) {
    SDKCallLog.shared.append("setAnalyticsCollectionEnabled \(enabled)")
  }
  static func resetAnalyticsData() { SDKCallLog.shared.append("resetAnalyticsData") }
}

/// Amplitude-Swift's module, whose `Amplitude` class an app names `AmplitudeSwift.Amplitude`.
enum AmplitudeSwift {
  typealias Amplitude = AmplitudeClient
}

/// Amplitude-Swift's `Amplitude` client (not `Sendable`, as the SDK's is not).
final class AmplitudeClient {
  var optOut = false

  func track(eventType: String, eventProperties: [String: Any]? = nil) {
    SDKCallLog.shared.append("track \(eventType) \(eventProperties?.keys.sorted() ?? [])")
  }
  func identify(userProperties: [String: Any]?) { SDKCallLog.shared.append("identify") }
  func setUserId(userId: String?) { SDKCallLog.shared.append("setUserId \(userId ?? "nil")") }
  func setDeviceId(deviceId: String?) { SDKCallLog.shared.append("setDeviceId \(deviceId ?? "nil")") }
  func setGroup(groupType: String, groupName: String) {
    SDKCallLog.shared.append("setGroup \(groupType)=\(groupName)")
  }
  func revenue(revenue: Revenue) {
    SDKCallLog.shared.append(
      "revenue \(revenue.productId ?? "nil") \(revenue.price ?? 0) \(revenue.quantity)")
  }
  func reset() { SDKCallLog.shared.append("reset") }
}

/// Amplitude-Swift's `Revenue`.
final class Revenue {
  var productId: String?
  var price: Double?
  var quantity = 1
}
