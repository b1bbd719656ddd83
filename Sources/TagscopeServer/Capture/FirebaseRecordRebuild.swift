import AnalyticsHub
import TagscopeRecording

/// A Firebase upload's record as the protobuf message its SDK sent (the inverse of
/// ``FirebaseUploadRecords``): its bundle's context as the bundle's fields, its event (the app's
/// parameters, then the SDK's own under their short names) or user property, at its time.
enum FirebaseRecordRebuild {
  typealias NotRebuilt = HARRequestRebuild.NotRebuilt

  /// What one record gives its bundle.
  enum Part {
    case event(Tagscope_Firebase_Event)
    case property(Tagscope_Firebase_UserProperty)
  }

  /// The bundle of the context `extra` keeps (``FirebaseUploadRecords/context(_:)``'s fields),
  /// with no events or user properties; or the field that does not read back.
  static func bundle(_ extra: Properties) -> Result<Tagscope_Firebase_Bundle, NotRebuilt> {
    var bundle = Tagscope_Firebase_Bundle()
    for (key, value) in extra {
      let text = value.stringValue
      let int = value.intValue.map(Int64.init)
      let flag: Bool? = if case .bool(let flag) = value { flag } else { nil }
      var fits = true
      func set<T>(_ got: T?, _ apply: (T) -> Void) {
        if let got { apply(got) } else { fits = false }
      }
      switch key {
      case "app_instance_id": set(text) { bundle.appInstanceID = $0 }
      case "platform": set(text) { bundle.platform = $0 }
      case "os_version": set(text) { bundle.osVersion = $0 }
      case "device_model": set(text) { bundle.deviceModel = $0 }
      case "language": set(text) { bundle.userDefaultLanguage = $0 }
      case "time_zone_offset_minutes":
        set(int.flatMap { Int32(exactly: $0) }) { bundle.timeZoneOffsetMinutes = $0 }
      case "app_id": set(text) { bundle.appID = $0 }
      case "app_version": set(text) { bundle.appVersion = $0 }
      case "app_version_major": set(int) { bundle.appVersionMajor = $0 }
      case "gmp_app_id": set(text) { bundle.gmpAppID = $0 }
      case "gmp_version": set(int) { bundle.gmpVersion = $0 }
      case "uploading_gmp_version": set(int) { bundle.uploadingGmpVersion = $0 }
      case "install_source": set(text) { bundle.installSource = $0 }
      case "firebase_instance_id": set(text) { bundle.firebaseInstanceID = $0 }
      case "resettable_device_id": set(text) { bundle.resettableDeviceID = $0 }
      case "vendor_device_id": set(text) { bundle.vendorDeviceID = $0 }
      case "consent_state": set(text) { bundle.consentState = $0 }
      case "bundle_sequential_index":
        set(int.flatMap { Int32(exactly: $0) }) { bundle.bundleSequentialIndex = $0 }
      case "upload_timestamp_millis": set(int) { bundle.uploadTimestampMillis = $0 }
      case "start_timestamp_millis": set(int) { bundle.startTimestampMillis = $0 }
      case "end_timestamp_millis": set(int) { bundle.endTimestampMillis = $0 }
      case "previous_bundle_start_timestamp_millis":
        set(int) { bundle.previousBundleStartTimestampMillis = $0 }
      case "previous_bundle_end_timestamp_millis": set(int) { bundle.previousBundleEndTimestampMillis = $0 }
      case "protocol_version": set(int.flatMap { Int32(exactly: $0) }) { bundle.protocolVersion = $0 }
      case "dev_cert_hash": set(text.flatMap { UInt64($0) }) { bundle.devCertHash = $0 }
      case "limited_ad_tracking": set(flag) { bundle.limitedAdTracking = $0 }
      case "health_monitor_sample": set(text) { bundle.healthMonitorSample = $0 }
      case "service_upload": set(flag) { bundle.serviceUpload = $0 }
      case "config_version": set(int) { bundle.configVersion = $0 }
      case "dynamite_version": set(int) { bundle.dynamiteVersion = $0 }
      case "target_os_version": set(int.flatMap { Int32(exactly: $0) }) { bundle.targetOsVersion = $0 }
      case "consent_diagnostics": set(text) { bundle.consentDiagnostics = $0 }
      case "is_dma_region": set(flag) { bundle.isDmaRegion = $0 }
      case "core_platform_services": set(text) { bundle.corePlatformServices = $0 }
      default: break
      }
      guard fits else {
        return .failure(
          NotRebuilt(reason: "its bundle's `\(key)` is not of the type the upload's field holds"))
      }
    }
    return .success(bundle)
  }

  /// The message `output`'s record (at `time`) gives its bundle, or why it gives none.
  static func part(of output: ProviderOutput, time: Int64) -> Result<Part, NotRebuilt> {
    guard let call = output.calls.first, let name = call.name else {
      return .failure(NotRebuilt(reason: "it has no call"))
    }
    let wireName = output.extra["short_name"]?.stringValue ?? name
    switch call.method {
    case "setUserProperty", FirebaseLogRecords.automaticUserProperty:
      var property = Tagscope_Firebase_UserProperty()
      property.name = wireName
      property.setTimestampMillis = time
      switch call.parameters["value"] ?? .null {
      case .string(let text): property.stringValue = text
      case .int(let number): property.intValue = Int64(number)
      case .double(let number): property.doubleValue = number
      case .null: break
      default: return .failure(NotRebuilt(reason: "its value is not one a user property holds"))
      }
      return .success(.property(property))
    case "logEvent", FirebaseLogRecords.automaticEvent:
      var event = Tagscope_Firebase_Event()
      event.name = wireName
      event.timestampMillis = time
      if let previous = output.extra["previous_timestamp_millis"]?.intValue {
        event.previousTimestampMillis = Int64(previous)
      }
      let short = output.extra["short_names"].map(Payload.object) ?? [:]
      let sdk = output.extra["sdk_parameters"].map(Payload.object) ?? [:]
      let isScreenView = name == "screen_view"
      let pairs =
        call.parameters.map { (isScreenView ? short[$0.key]?.stringValue ?? $0.key : $0.key, $0.value) }
        + sdk.map { (short[$0.key]?.stringValue ?? $0.key, $0.value) }
      for (key, value) in pairs {
        guard let parameter = parameter(key, value) else {
          return .failure(
            NotRebuilt(reason: "its parameter `\(key)` is not a value an event parameter holds"))
        }
        event.param.append(parameter)
      }
      return .success(.event(event))
    default:
      return .failure(NotRebuilt(reason: "firebase rebuilds no `\(call.method)` call"))
    }
  }

  /// The parameter `name` of `value` (an array: its items, each an object of parameters or one
  /// value); `nil` for a value no parameter holds.
  private static func parameter(_ name: String?, _ value: PropertyValue) -> Tagscope_Firebase_EventParameter?
  {
    var parameter = Tagscope_Firebase_EventParameter()
    if let name { parameter.name = name }
    switch value {
    case .string(let text): parameter.stringValue = text
    case .int(let number): parameter.intValue = Int64(number)
    case .double(let number): parameter.doubleValue = number
    case .null: break
    case .array(let items) where !items.isEmpty:
      for item in items {
        switch item {
        case .object(let fields) where !fields.isEmpty:
          var nested = Tagscope_Firebase_EventParameter()
          for (key, value) in fields {
            guard let inner = self.parameter(key, value) else { return nil }
            nested.nested.append(inner)
          }
          parameter.nested.append(nested)
        case .object, .array: return nil
        default:
          guard let inner = self.parameter(nil, item) else { return nil }
          parameter.nested.append(inner)
        }
      }
    default: return nil
    }
    return parameter
  }
}
