import Foundation

#if canImport(UIKit) && !os(watchOS)
  import UIKit
#endif

/// Names the app and the device a debug stream comes from, as the platform tells them: the bundle's
/// display name, name or identifier (else the process name) for the app; on a simulator its device
/// name, on an iPhone or iPad the device's name and model identifier (`iPhone15,2`), on a Mac its
/// computer name, elsewhere the host name.
public enum PlatformIdentity {
  /// The app's name: `CFBundleDisplayName`, `CFBundleName`, the bundle identifier, or the process
  /// name, the first that is not empty.
  public static var appName: String {
    let info = Bundle.main.infoDictionary ?? [:]
    let candidates = [
      info["CFBundleDisplayName"] as? String, info["CFBundleName"] as? String, Bundle.main.bundleIdentifier,
    ]
    return candidates.compactMap { $0 }.first { !$0.isEmpty } ?? ProcessInfo.processInfo.processName
  }

  /// The device's name: a simulator's device name (`iPhone 15 Simulator`); on an iPhone or iPad,
  /// its name and model identifier (`iPhone (iPhone15,2)`); on a Mac, its computer name; elsewhere
  /// the host name.
  public static var deviceName: String {
    #if targetEnvironment(simulator)
      let environment = ProcessInfo.processInfo.environment
      if let name = environment["SIMULATOR_DEVICE_NAME"], !name.isEmpty { return name + " Simulator" }
    #endif
    #if canImport(UIKit) && !os(watchOS)
      if Thread.isMainThread {
        let name = MainActor.assumeIsolated { UIDevice.current.name }
        return "\(name) (\(modelIdentifier))"
      }
      return modelIdentifier
    #elseif os(macOS)
      return Host.current().localizedName ?? ProcessInfo.processInfo.hostName
    #else
      return ProcessInfo.processInfo.hostName
    #endif
  }

  /// The hardware model identifier (`iPhone15,2`, `arm64` on a simulator), from `uname`.
  static var modelIdentifier: String {
    var system = utsname()
    uname(&system)
    return withUnsafeBytes(of: &system.machine) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}

extension RecordingHeader {
  /// A header naming this app and device (``PlatformIdentity``), or the names given, started now;
  /// `token` is what `tagscope listen --token` expects.
  public static func current(app: String? = nil, device: String? = nil, token: String? = nil)
    -> RecordingHeader
  {
    var header = RecordingHeader(
      app: app ?? PlatformIdentity.appName, device: device ?? PlatformIdentity.deviceName, started: Date())
    if let token { header.extra["token"] = .string(token) }
    return header
  }
}
