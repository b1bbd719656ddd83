import AnalyticsHub
import XCTest

@testable import TaggingPlan

/// The advertising-id keys the recordings of `listen` and `proxy` hold, vendor by vendor, are
/// advertising-id keys for `validate` and for `redact` alike.
final class AdvertisingKeyTests: XCTestCase {
  private let idfa = "38400000-8CF0-11BD-B23E-10B96E40000D"

  func testVendorsAdvertisingIDKeysAreAdvertisingKeys() {
    let keys = [
      "resettable_device_id",  // Firebase's wire key (listen, proxy)
      "rdid",  // Firebase's URL parameter
      "ios_advertising_id", "android_advertising_id", "fire_advertising_id",  // mParticle
      "idfa", "gps_adid", "fire_adid",  // Adjust
      "adid",  // Amplitude
      "advertisingId",  // Segment context.device.advertisingId
      "advertiserId", "advertiser_id",  // AppsFlyer
      "google_ad_id",  // Braze
    ]
    for key in keys { XCTAssertTrue(PIIKeyContext(key: key).advertising, key) }
    for key in [
      "device_id", "resettable", "idfv", "ios_idfv", "vendor_device_id", "resettable_id", "app_instance_id",
    ] {
      XCTAssertFalse(PIIKeyContext(key: key).advertising, key)
    }
  }

  func testValidateAndRedactCatchFirebasesResettableDeviceID() {
    XCTAssertEqual(
      PIIScanner.scan(idfa, key: PIIKeyContext(key: "resettable_device_id")).map(\.kind), [.advertisingID])
    XCTAssertEqual(PIIScanner.scan("rdid=\(idfa)").map(\.kind), [.advertisingID])
    var redactor = Redactor(salt: "s")
    let line = #"{"seq":1,"outputs":[{"calls":[{"parameters":{"resettable_device_id":"\#(idfa)"}}]}]}"#
    let copy = redactor.redact(line: line)
    XCTAssertFalse(copy.contains(idfa), copy)
    XCTAssertEqual(redactor.counts[PIIKind.advertisingID.index], 1)
  }
}
