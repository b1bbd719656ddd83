import AnalyticsHub
import Foundation
import NIOHTTP1
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// Firebase's own uploads (`POST /a`) re-encoded from the field dumps of real captures
/// (`Tests/Fixtures/firebase-upload`, sources in its README): every event, parameter, user
/// property and device field of each dump is in the records, named as the debug log reader
/// names them.
final class FirebaseUploadFixtureTests: XCTestCase {
  static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/firebase-upload")

  static func fixture(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
  }

  /// The endpoint's reply to `body` posted to `/a`, as the router hands it.
  static func reply(_ body: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> SDKReply? {
    guard case .endpoint(let endpoint) = EndpointRouter.route(method: .POST, path: "/a") else {
      XCTFail("no endpoint at /a", file: file, line: line)
      return nil
    }
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
    return endpoint.handle(
      ReceivedRequest(
        method: .POST, path: "/a", query: [], headers: headers, body: body, peerHost: "127.0.0.1"))
  }

  private static func sdk(_ event: IngestedEvent) -> Properties {
    Payload.object(event.annotations["sdk_parameters"])
  }

  private static func time(_ millis: Int) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }

  /// F2: Google Dialer on a Pixel 2, 2021: seven events and six user properties.
  func testTheAndroid2021UploadIsReadWhole() throws {
    let reply = try XCTUnwrap(Self.reply(try Self.fixture("android-2021.pb.gz")))
    XCTAssertEqual(reply.status, .noContent, reply.body)
    XCTAssertEqual(reply.contentType, "image/gif")
    XCTAssertEqual(reply.body, "")
    let events = reply.events
    XCTAssertEqual(
      events.map { "\($0.kind.rawValue) \($0.name) \($0.call.method) \($0.call.name ?? "-")" },
      [
        "event session_start automaticEvent session_start",
        "event OUTGOING_CALL_PLACED logEvent OUTGOING_CALL_PLACED",
        "event OUTGOING_CALL_PLACED logEvent OUTGOING_CALL_PLACED",
        "event user_engagement automaticEvent user_engagement",
        "screen MainActivity automaticEvent screen_view",
        "event user_engagement automaticEvent user_engagement",
        "event app_background automaticEvent app_background",
        "identify first_open_time automaticUserProperty first_open_time",
        "identify first_open_after_install automaticUserProperty first_open_after_install",
        "identify lifetime_user_engagement automaticUserProperty lifetime_user_engagement",
        "identify session_user_engagement automaticUserProperty session_user_engagement",
        "identify ga_session_number automaticUserProperty ga_session_number",
        "identify ga_session_id automaticUserProperty ga_session_id",
      ])
    guard events.count == 13 else { return }
    XCTAssertEqual(
      events.map { $0.time },
      [
        1_635_013_035_972, 1_635_013_035_855, 1_635_013_037_816, 1_635_013_037_864, 1_635_013_037_956,
        1_635_013_039_037, 1_635_013_039_074, 1_634_718_012_033, 1_634_718_012_033, 1_635_013_042_106,
        1_635_013_042_107, 1_635_013_035_972, 1_635_013_035_972,
      ].map(Self.time))
    XCTAssertEqual(
      events.map { $0.annotations["previous_timestamp_millis"] },
      [
        .int(1_634_976_331_041), .int(1_634_978_189_654), .int(1_635_013_035_855), .int(1_634_978_190_866),
        .int(1_634_978_189_769), .int(1_635_013_037_864), .int(1_634_978_190_903),
      ] + Array(repeating: nil, count: 6))
    // Parameters: the app's in the call, the SDK's beside it by their public names.
    XCTAssertEqual(events[0].properties, [:])
    XCTAssertEqual(
      Self.sdk(events[0]),
      ["ga_event_origin": "auto", "ga_session_id": .int(1_635_013_035), "ga_session_number": .int(8)])
    XCTAssertEqual(
      Payload.object(events[0].annotations["short_names"]),
      ["ga_event_origin": "_o", "ga_session_id": "_sid", "ga_session_number": "_sno"])
    XCTAssertEqual(events[0].annotations["short_name"], "_s")
    for index in [1, 2] {
      XCTAssertEqual(events[index].properties, [:])
      XCTAssertEqual(Self.sdk(events[index]), ["ga_event_origin": "app"])
      XCTAssertEqual(events[index].annotations["origin"], "app")
      XCTAssertNil(events[index].annotations["short_name"])
    }
    XCTAssertEqual(Self.sdk(events[3]), ["ga_event_origin": "auto", "engagement_time_msec": .int(1982)])
    XCTAssertEqual(events[4].properties, ["screen_class": "MainActivity"])
    XCTAssertEqual(events[4].call.parameters, ["screen_class": "MainActivity"])
    XCTAssertEqual(
      Self.sdk(events[4]), ["ga_event_origin": "auto", "ga_screen_id": .int(6_625_442_165_989_094_211)])
    XCTAssertEqual(
      Self.sdk(events[5]),
      [
        "ga_event_origin": "auto", "engagement_time_msec": .int(1074), "ga_screen_class": "MainActivity",
        "ga_screen_id": .int(6_625_442_165_989_094_211),
      ])
    XCTAssertEqual(Self.sdk(events[6]), ["ga_event_origin": "auto"])
    // User properties, their values as sent.
    XCTAssertEqual(
      events[7...].map { $0.properties["value"] },
      [
        .int(1_634_720_400_000), .int(0), .int(568_287), .int(3056), .int(8), .int(1_635_013_035),
      ])
    XCTAssertEqual(events[7].annotations["short_name"], "_fot")
    XCTAssertEqual(events[7].annotations["origin"], "auto")
    // The device, app and session of every record.
    for event in events {
      XCTAssertEqual(event.provider, "firebase")
      XCTAssertEqual(
        event.identity,
        DeviceIdentity(
          deviceID: "27119320961e981207e9f885ddfb897b", app: "com.google.android.dialer", platform: "android",
          model: "Pixel 2", sessionID: "1635013035"), event.name)
      XCTAssertEqual(event.annotations["os_version"], "11")
      XCTAssertEqual(event.annotations["app_version"], "70.05.401408800")
      XCTAssertEqual(event.annotations["gmp_app_id"], "1:566865154279:android:85888a731cba65c4ed1242")
      XCTAssertEqual(event.annotations["language"], "en-ie")
      XCTAssertEqual(event.annotations["time_zone_offset_minutes"], .int(60))
      XCTAssertEqual(event.annotations["app_version_major"], .int(7_903_277))
      XCTAssertEqual(event.annotations["gmp_version"], .int(44007))
      XCTAssertEqual(event.annotations["uploading_gmp_version"], .int(213_916))
      XCTAssertEqual(event.annotations["firebase_instance_id"], "f86VDMH_SSGcArMl6Up973")
      XCTAssertEqual(event.annotations["resettable_device_id"], "916c714a-e838-479d-a7a6-3325d838da5f")
      XCTAssertEqual(event.annotations["consent_state"], "G1--")
      XCTAssertEqual(event.annotations["bundle_sequential_index"], .int(16))
      XCTAssertEqual(event.annotations["upload_timestamp_millis"], .int(1_635_013_042_098))
      XCTAssertEqual(event.annotations["start_timestamp_millis"], .int(1_635_013_035_855))
      XCTAssertEqual(event.annotations["end_timestamp_millis"], .int(1_635_013_039_074))
      XCTAssertEqual(event.annotations["previous_bundle_end_timestamp_millis"], .int(1_634_978_190_903))
      XCTAssertEqual(event.annotations["previous_bundle_start_timestamp_millis"], .int(1_634_978_132_513))
      XCTAssertEqual(event.annotations["protocol_version"], .int(1))
      XCTAssertEqual(event.annotations["limited_ad_tracking"], .bool(false), "an explicit zero is kept")
      XCTAssertEqual(event.annotations["dev_cert_hash"], "12863297414841520258")
      XCTAssertEqual(
        event.annotations["health_monitor_sample"], "4:2WP213916:Interrupted in onRunTask while uploading")
      XCTAssertEqual(event.annotations["service_upload"], .bool(true))
      XCTAssertEqual(event.annotations["config_version"], .int(1_631_224_292_436_546))
      XCTAssertEqual(event.annotations["dynamite_version"], .int(53))
      // Field 45 is in no schema: kept, named with its place and value.
      XCTAssertEqual(
        Payload.object(event.annotations["unknown_fields"]),
        ["count": .int(1), "fields": ["bundle 1 field 45 (varint 23180913)"]])
    }
    XCTAssertEqual(events[3].annotations["place"], "bundle 1 event 4")
    XCTAssertEqual(events[12].annotations["place"], "bundle 1 user property 6")
  }

  /// F1: Google Play Store's first_open on a Pixel 7, 2024 (region1): one event of eight
  /// parameters, four user properties; every field of it is one the schema declares.
  func testTheAndroid2024FirstOpenIsReadWhole() throws {
    let reply = try XCTUnwrap(Self.reply(try Self.fixture("android-2024.pb.gz")))
    XCTAssertEqual(reply.status, .noContent, reply.body)
    let events = reply.events
    XCTAssertEqual(
      events.map { "\($0.kind.rawValue) \($0.name) \($0.call.method)" },
      [
        "event first_open automaticEvent", "identify first_open_time automaticUserProperty",
        "identify first_open_after_install automaticUserProperty",
        "identify lifetime_user_engagement automaticUserProperty",
        "identify non_personalized_ads automaticUserProperty",
      ])
    guard events.count == 5 else { return }
    XCTAssertEqual(events[0].time, Self.time(1_734_600_130_510))
    XCTAssertEqual(events[0].annotations["previous_timestamp_millis"], .int(0), "an explicit zero is kept")
    XCTAssertEqual(
      Self.sdk(events[0]),
      [
        "firebase_conversion": .int(1), "ga_event_origin": "auto", "ga_realtime": .int(1),
        "engagement_time_msec": .int(1), "previous_first_open_count": .int(0), "system_app": .int(1),
        "update_with_analytics": .int(0), "system_app_update": .int(0),
      ])
    XCTAssertEqual(
      events[1...].map { $0.properties["value"] }, [.int(1_734_602_400_000), .int(1), .int(1), .int(1)])
    XCTAssertEqual(
      events[1...].map(\.time),
      [1_734_600_130_510, 1_734_600_130_510, 1_734_600_514_995, 1_734_600_515_001].map(Self.time))
    for event in events {
      XCTAssertEqual(
        event.identity,
        DeviceIdentity(
          deviceID: "6021f37862b0bbe21040ad0c1c1b51ce", app: "com.android.vending", platform: "android",
          model: "Pixel 7"))
      XCTAssertEqual(event.annotations["os_version"], "15")
      XCTAssertEqual(event.annotations["app_version"], "43.0.18-31 [0] [PR] 679685942")
      XCTAssertEqual(event.annotations["gmp_app_id"], "1:327451421140:android:9c547b5ed466b580")
      XCTAssertEqual(event.annotations["install_source"], "manual_install")
      XCTAssertEqual(event.annotations["time_zone_offset_minutes"], .int(0))
      XCTAssertEqual(event.annotations["app_version_major"], .int(84_301_830))
      XCTAssertEqual(event.annotations["firebase_instance_id"], "dT55cNetSmiJkAd8tGpXEz")
      XCTAssertEqual(event.annotations["target_os_version"], .int(35))
      XCTAssertEqual(event.annotations["consent_diagnostics"], "19911")
      XCTAssertEqual(event.annotations["is_dma_region"], .bool(true))
      XCTAssertEqual(event.annotations["core_platform_services"], "ahmopsy")
      XCTAssertEqual(event.annotations["dev_cert_hash"], "12815780039134672363")
      XCTAssertEqual(event.annotations["resettable_device_id"], "d4a1aab9-f57a-43f0-a138-60fd1af33913")
      XCTAssertEqual(event.annotations["gmp_version"], .int(101_006))
      XCTAssertEqual(event.annotations["uploading_gmp_version"], .int(243_333))
      XCTAssertEqual(event.annotations["consent_state"], "G1--")
      XCTAssertEqual(event.annotations["language"], "en-ie")
      XCTAssertNil(event.annotations["unknown_fields"])
    }
  }

  /// Every field of both Android captures is kept: the batch decoded and encoded again is the
  /// captured protobuf byte for byte (ascending fields, explicit zeros), but for the one field no
  /// schema knows (2021's field 45), which swift-protobuf writes again after the known ones.
  func testTheAndroidCapturesRoundTripByteForByte() throws {
    for name in ["android-2021", "android-2024"] {
      var protobuf = try Self.fixture(name + ".pb")
      let batch = try FirebaseUploadEndpoint.decodeBatch(try Self.fixture(name + ".pb.gz")).get()
      let encoded: [UInt8] = try batch.serializedBytes()
      if name == "android-2021" {
        // Field 45, varint 23180913: key 0xe8 0x02, value 0xf1 0xec 0x86 0x0b.
        let field45: [UInt8] = [0xe8, 0x02, 0xf1, 0xec, 0x86, 0x0b]
        let at = try XCTUnwrap(
          (0...(protobuf.count - 6)).first { Array(protobuf[$0..<($0 + 6)]) == field45 })
        protobuf.removeSubrange(at..<(at + 6))
        protobuf += field45
      }
      XCTAssertEqual(encoded, protobuf, name)
    }
  }

  /// F3: the published part of a 2023 iOS first_open (gzip'd).
  func testTheIOS2023FirstOpenIsRead() throws {
    let reply = try XCTUnwrap(Self.reply(try Self.fixture("ios-2023-first-open.pb.gz")))
    XCTAssertEqual(reply.status, .noContent, reply.body)
    XCTAssertEqual(
      reply.events.map(\.name), ["first_open", "first_open_after_install", "first_open_time"])
    XCTAssertEqual(
      reply.events.first.map(Self.sdk),
      [
        "update_with_analytics": .int(0), "previous_first_open_count": .int(0), "ga_event_origin": "auto",
        "ga_realtime": .int(1), "firebase_conversion": .int(1),
      ])
    XCTAssertEqual(
      reply.events.map { $0.properties["value"] ?? nil }, [nil, .int(1), .int(1_686_384_000_000)])
  }

  /// F4: a 2020 iOS upload sent raw (no gzip, no Content-Encoding), two bundles: the screen
  /// history is the screen views' classes, `_pc` the previous one; the session the bundle's.
  func testTheIOS2020RawUploadIsRead() throws {
    let reply = try XCTUnwrap(Self.reply(try Self.fixture("ios-2020-raw.pb")))
    XCTAssertEqual(reply.status, .noContent, reply.body)
    let events = reply.events
    XCTAssertEqual(
      events.map { "\($0.kind.rawValue) \($0.name)" },
      [
        "event first_open", "identify first_open_after_install", "identify first_open_time",
        "event session_start", "event user_engagement", "screen OnboardingStep1ViewController",
        "identify first_open_after_install", "identify first_open_time", "identify ga_session_id",
        "identify ga_session_number", "identify lifetime_user_engagement", "identify session_user_engagement",
      ])
    guard events.count == 12 else { return }
    XCTAssertEqual(Self.sdk(events[0])["ga_screen_class"], "InitialScreenViewController")
    XCTAssertEqual(events[5].properties, ["screen_class": "OnboardingStep1ViewController"])
    XCTAssertEqual(Self.sdk(events[5])["ga_previous_class"], "InitialScreenViewController")
    XCTAssertEqual(Self.sdk(events[5])["ga_previous_id"], .int(1_111_111_111_111_111_111))
    XCTAssertEqual(events[0].identity.sessionID, nil, "the first bundle names no session")
    XCTAssertEqual(events[3].identity.sessionID, "1585000010")
    XCTAssertEqual(events[5].identity.sessionID, "1585000010")
    for event in events {
      XCTAssertEqual(event.identity.deviceID, "293E617885B149279E485D7CDCF6C1BC")
      XCTAssertEqual(event.identity.platform, "ios")
      XCTAssertEqual(event.identity.model, "iPhone10,4")
      XCTAssertEqual(event.identity.app, "sg.gov.tech.bluetrace")
      XCTAssertEqual(event.annotations["os_version"], "13.3.1")
      XCTAssertEqual(event.annotations["vendor_device_id"], "DFCF2026-B857-4889-B915-FF77B702851D")
      XCTAssertEqual(event.annotations["gmp_app_id"], "1:510731179958:ios:28487b80a62459446d5317")
    }
    XCTAssertEqual(events[3].annotations["place"], "bundle 2 event 1")
  }
}
