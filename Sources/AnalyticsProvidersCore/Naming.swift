import AnalyticsHub
import Foundation

/// Turns an app's tag names (`playPodcast`, `notEnoughStorageSpaceForDownload`) into each SDK's
/// naming convention.
public enum TagNaming {
  /// `playPodcast` → `play_podcast` (Firebase, Batch, Piano property style).
  public static func snakeCase(_ name: String) -> String {
    var result = ""
    result.reserveCapacity(name.utf8.count + 4)
    var previousWasLowerOrDigit = false
    for character in name {
      if character == " " || character == "-" || character == "." {
        if !result.hasSuffix("_"), !result.isEmpty { result.append("_") }
        previousWasLowerOrDigit = false
        continue
      }
      if character.isUppercase {
        if previousWasLowerOrDigit { result.append("_") }
        result.append(contentsOf: character.lowercased())
        previousWasLowerOrDigit = false
      } else {
        result.append(character)
        previousWasLowerOrDigit = character.isLowercase || character.isNumber
      }
    }
    return result
  }

  /// `playPodcast` → `PLAY_PODCAST`.
  public static func upperSnakeCase(_ name: String) -> String { snakeCase(name).uppercased() }

  /// `playPodcast` → `Play Podcast` (Amplitude, Segment, Mixpanel "Object Action" style).
  public static func titleCase(_ name: String) -> String {
    snakeCase(name).split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }
      .joined(separator: " ")
  }
}

extension PropertyValue {
  /// The value as an SDK that only takes strings receives it (Firebase user properties, Adobe
  /// context data): numbers and booleans spelled out, dates in ISO 8601, `null` as `nil`.
  public var sdkString: String? {
    switch self {
    case .string(let value): return value
    case .null: return nil
    default: return displayText
    }
  }
}
