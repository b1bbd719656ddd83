import AnalyticsHub
import XCTest

@testable import TagscopeServer

/// What the records of Firebase uploads share or skip to be made faster must leave them as they
/// were: names told apart by their packed words (``FirebaseNameWord``), pairs appended unchecked
/// when no name comes twice, one `short_names` annotation for each list of SDK parameters
/// (``FirebaseShortNamesCache``), one summary of the fields the schema lacks for each list
/// (``FirebaseUnknownFields/summary(_:)``), and the shape counted before it is walked.
final class FirebaseUploadSharingTests: XCTestCase, ProtobufWriting {
  private static let identity = DeviceIdentity(deviceID: "device-1")
  private static let common: Properties = ["platform": .string("android")]

  /// The record of event `name` with `parameters` (name, value), as an upload's builder makes it.
  private static func record(_ name: String, _ parameters: [(String, PropertyValue)]) -> IngestedEvent {
    var header = FirebaseEventHeader()
    header.setName(name, word: FirebaseNameWord.of(name))
    var values = parameters.map { FirebaseParameterValue(name: $0.0, value: $0.1) }
    let event = FirebaseUploadRecords.record(
      header, parameters: &values, identity: identity, common: common, place: "bundle 1 event 1")
    XCTAssertTrue(values.isEmpty, "the parameters are moved into the record")
    return event
  }

  /// The pairs of `properties`, in order: equality of properties does not see their order.
  private static func pairs(_ properties: Properties?) -> [String] {
    (properties ?? [:]).map { "\($0.key)=\($0.value.displayText)" }
  }

  func testNamesPackIntoAWordOnlyWhenTheWordTellsThemApart() {
    for name in ["", "123456789", "é", "_é", "a\u{0}", "e\u{301}"] {
      XCTAssertEqual(FirebaseNameWord.of(name), 0, name)
      Array(name.utf8).withUnsafeBufferPointer { XCTAssertEqual(FirebaseNameWord.of($0), 0, name) }
    }
    let names = ["_o", "_sc", "_si", "_sid", "_sno", "item", "12345678", "a", "b", "_"]
    var words: Set<UInt64> = []
    for name in names {
      let word = FirebaseNameWord.of(name)
      XCTAssertNotEqual(word, 0, name)
      Array(name.utf8).withUnsafeBufferPointer { XCTAssertEqual(FirebaseNameWord.of($0), word, name) }
      words.insert(word)
    }
    XCTAssertEqual(words.count, names.count)
  }

  func testTheTablesShortNamesStandForDistinctNames() {
    // Else every record's SDK parameters and short names would be looked for before appended.
    XCTAssertTrue(FirebaseUploadRecords.tables.shortNamesStayDistinct)
  }

  /// Names that come twice, told apart by their words, their text (past eight bytes) or their
  /// canonical equivalence: each keeps its first place and takes its last value, as the log's
  /// records do (``FirebaseLogRecords/properties(_:)``).
  func testARepeatedNameKeepsItsFirstPlaceAndItsLastValue() {
    let app: [(String, PropertyValue)] = [
      ("a", .int(1)), ("b", .int(2)), ("a", .int(3)), ("a_long_name", .int(4)), ("a_long_name", .int(5)),
      ("é", .int(6)), ("e\u{301}", .int(7)),
    ]
    let sdk: [(String, PropertyValue)] = [("_et", .int(8)), ("_o", .string("app")), ("_et", .int(9))]
    let event = Self.record("tap", app + sdk)
    XCTAssertEqual(Self.pairs(event.properties), Self.pairs(FirebaseLogRecords.properties(app)))
    XCTAssertEqual(event.properties.count, 4)
    XCTAssertEqual(
      Self.pairs(Payload.object(event.annotations["sdk_parameters"])),
      ["engagement_time_msec=9", "ga_event_origin=app"])
    XCTAssertEqual(
      Self.pairs(Payload.object(event.annotations["short_names"])),
      ["engagement_time_msec=_et", "ga_event_origin=_o"])
    // All distinct: the same pairs, each appended as it came.
    let distinct = Self.record("tap", [("a", .int(1)), ("_et", .int(8)), ("a_long_name", .int(4))])
    XCTAssertEqual(Self.pairs(distinct.properties), ["a=1", "a_long_name=4"])
  }

  /// A screen view's own names (`screen_name`, from `_sn`) may be an app parameter's too: the
  /// later value counts, in the first place.
  func testAScreenViewsOwnNameMeetsTheAppsParameterOfThatName() {
    let event = Self.record(
      "_vs", [("screen_name", .string("Typed")), ("_sc", .string("Class")), ("_sn", .string("Home"))])
    XCTAssertEqual(Self.pairs(event.properties), ["screen_name=Home", "screen_class=Class"])
    XCTAssertEqual(event.name, "Home")
    XCTAssertEqual(event.kind, .screen)
  }

  /// Events with the same SDK parameters share one `short_names`; a screen view's differ from
  /// another event's with the same short names (its own names), and a short name past eight bytes
  /// (no word: not kept) is there too.
  func testShortNamesAreTheEventsOwnWhetherMadeOrKept() {
    let shorts: [(String, PropertyValue)] = [("_sn", .string("Home")), ("_sc", .string("Main"))]
    for _ in 0..<3 {
      XCTAssertEqual(
        Self.pairs(Payload.object(Self.record("_vs", shorts).annotations["short_names"])),
        ["screen_name=_sn", "screen_class=_sc"])
      XCTAssertEqual(
        Self.pairs(Payload.object(Self.record("_e", shorts).annotations["short_names"])),
        ["ga_screen=_sn", "ga_screen_class=_sc"])
      XCTAssertEqual(
        Self.pairs(
          Payload.object(Self.record("_e", [("_a_long_short", .int(1))]).annotations["short_names"])),
        ["_a_long_short=_a_long_short"])
      XCTAssertEqual(
        Self.pairs(Payload.object(Self.record("_e", [("_sc", .string("Main"))]).annotations["short_names"])),
        ["ga_screen_class=_sc"])
    }
    XCTAssertNil(Self.record("tap", [("a", .int(1))]).annotations["short_names"])
  }

  /// Each list's summary is the account's own, made once: its note, and the fields not understood
  /// (a place noted twice keeps its first place and its last value, as the account's merge does).
  func testTheSummaryOfFieldsTheSchemaLacksIsTheAccountsOwn() throws {
    XCTAssertNil(FirebaseUnknownFields.summary([]))
    let many = (1...40).map { "bundle 1 field \($0 + 100) (varint \($0))" }
    for found in [
      ["bundle 1 field 45 (varint 3)"],
      ["bundle 1 field 45 (varint 3)", "bundle 1 field 45 (varint 4)", "upload field 9 (text \"x\")"],
      many, [String(repeating: "x", count: FirebaseUnknownFields.summaryText + 1)],
    ] {
      let first = try XCTUnwrap(FirebaseUnknownFields.summary(found))
      let again = try XCTUnwrap(FirebaseUnknownFields.summary(found))
      XCTAssertEqual(first.note, FirebaseUploadRecords.note(found))
      XCTAssertEqual(again.note, first.note)
      var fresh = [Self.record("tap", [])]
      var reference = fresh
      try XCTUnwrap(again.report).addToFirst(ofFresh: &fresh)
      FirebaseUnknownFields.account(found).add(to: &reference)
      XCTAssertEqual(fresh, reference)
      XCTAssertEqual(Self.pairs(fresh[0].annotations), Self.pairs(reference[0].annotations))
    }
  }

  /// Counting a body's shape refuses what walking it refuses and counts what it counts: every
  /// real upload cut at every length, and with each byte changed.
  func testCountingTheShapeAgreesWithTheWalkThatNamesPlaces() throws {
    var checked = 0
    for body in try Self.walkedBodies() {
      for variant in Self.variants(of: body) {
        XCTAssertEqual(FirebaseUploadShape.check(variant), FirebaseUploadShape.walked(variant))
        checked += 1
      }
    }
    XCTAssertGreaterThan(checked, 10_000)
  }

  /// The real uploads, the synthetic one, one nested past the walk's depth and the group bodies.
  private static func walkedBodies() throws -> [[UInt8]] {
    var bodies: [[UInt8]] = []
    for name in ["android-2021.pb", "android-2024.pb", "ios-2020-raw.pb", "ios-2023-first-open.pb"] {
      bodies.append(try FirebaseUploadFixtureTests.fixture(name))
    }
    bodies.append(FirebaseWireWalkTests.synthetic())
    var deep = field(6, field(1, "leaf"))
    for _ in 0..<8 { deep = field(6, field(1, "item") + deep) }
    bodies.append(field(1, field(2, field(1, deep))))
    return bodies + groupBodies
  }

  /// `body` cut at every length, and with each byte replaced by each of five values.
  private static func variants(of body: [UInt8]) -> [[UInt8]] {
    var variants = (0...body.count).map { Array(body.prefix($0)) }
    for position in body.indices {
      for byte: UInt8 in [0x00, 0x07, 0x0b, 0x80, 0xff] where body[position] != byte {
        var changed = body
        changed[position] = byte
        variants.append(changed)
      }
    }
    return variants
  }

  /// Reading a small body before walking it (what a real upload takes) gives what walking it
  /// first gives: the same records, or the same refusal with its place, for every real upload cut
  /// at every length and with each byte changed, bodies past the walk's depth, groups holding
  /// what would be bundles, and one of more records than are built at once.
  func testReadingBeforeTheWalkGivesWhatWalkingFirstGives() throws {
    // One of more records than are built at once, whole and cut.
    var events: [UInt8] = []
    for _ in 0...BulkDelivery.offloadEvents { events += Self.field(2, Self.field(2, "_e")) }
    let many = Self.field(1, events)
    var compared = 0
    var recordsCompared = 0
    for body in try Self.walkedBodies() + [many] {
      let variants =
        body == many
        ? [body, Array(body.dropLast()), Array(body.prefix(body.count / 2))] : Self.variants(of: body)
      for variant in variants {
        let first = Self.records(FirebaseUploadEndpoint.read(variant))
        XCTAssertEqual(
          first, Self.records(FirebaseUploadEndpoint.read(variant, walkingFirst: true)),
          "\(variant.prefix(12).map { String($0, radix: 16) })")
        if case .success(let records) = first, !records.isEmpty { recordsCompared += 1 }
        compared += 1
      }
    }
    XCTAssertGreaterThan(compared, 10_000)
    XCTAssertGreaterThan(recordsCompared, 1_000)
    // A group holding what would be a bundle is one field the schema lacks, kept and reported.
    let read = try Self.records(FirebaseUploadEndpoint.read(Self.groupBodies[0])).get()
    XCTAssertEqual(read.map(\.name), ["user_engagement"])
    XCTAssertEqual(Self.pairs(Payload.object(read[0].annotations["unread"])), ["upload field 5=group"])
  }

  /// Bodies with groups (field 5: start 0x2b, end 0x2c), which Firebase never writes: one at the
  /// batch's level holding a field 1 that is no bundle, one in a bundle holding a field 2 that is
  /// no event, one nested in another.
  static let groupBodies: [[UInt8]] = [
    [0x2b] + field(1, [0xff, 0xff]) + [0x2c] + field(1, field(2, field(2, "_e"))),
    field(1, [0x2b] + field(2, [0x80]) + [0x2c] + field(2, field(2, "_e"))),
    field(1, [0x2b, 0x2b] + field(2, [0x80]) + [0x2c, 0x2c] + field(2, field(2, "_s"))),
  ]

  /// The records an upload read makes, built whole when it was indexed.
  private static func records(_ read: Result<FirebaseUploadEndpoint.Read, FirebaseUploadError>)
    -> Result<[IngestedEvent], FirebaseUploadError>
  {
    read.map { read in
      switch read {
      case .records(let records): return records
      case .index(let index): return index.events(0..<index.count)
      }
    }
  }
}
