import AnalyticsHub
import Foundation

extension Properties {
  /// The properties as Foundation objects (`NSString`, `NSNumber`, `NSArray`, `NSDictionary`),
  /// the form Objective-C SDKs take (`Analytics.logEvent(_:parameters:)`…); for an app's SDK
  /// adapter. `null` values are left out; dates become ISO 8601 strings.
  public var foundationDictionary: [String: NSObject] {
    var result: [String: NSObject] = [:]
    result.reserveCapacity(count)
    for (key, value) in self {
      if let object = value.foundationObject { result[key] = object }
    }
    return result
  }
}

extension PropertyValue {
  /// The value as a Foundation object; `nil` for `null`.
  public var foundationObject: NSObject? {
    switch self {
    case .string(let value): return NSString(string: value)
    case .int(let value): return NSNumber(value: value)
    // Up to UInt64.max as an unsigned NSNumber, beyond as a decimal number (38 digits exactly).
    case .largeInteger(let value):
      return value.uint64Value.map { NSNumber(value: $0) } ?? NSDecimalNumber(string: value.text)
    case .double(let value): return NSNumber(value: value)
    case .bool(let value): return NSNumber(value: value)
    case .date(let value): return NSString(string: PropertyValue.text(of: value))
    case .array(let values): return NSArray(array: values.compactMap(\.foundationObject))
    case .object(let properties): return NSDictionary(dictionary: properties.foundationDictionary)
    case .null: return nil
    }
  }
}
