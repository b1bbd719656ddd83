import AnalyticsHub
import TagscopeVendors

/// A vendor's ``Vendor/IdentityFields`` ready to read: each dotted path split once, when the
/// decoder first needs it.
struct IdentityReader: Sendable {
  /// One dotted path: its first field, read from the decoder's root, then the fields under it; a
  /// field written `name[0]` is the first element of the array `name` (Adobe's
  /// `identityMap.ECID[0].id`).
  struct Path: Sendable {
    let head: String
    let rest: [String]

    init(_ dotted: String) {
      let fields = dotted.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
      head = fields[0]
      rest = Array(fields.dropFirst())
    }
  }

  let user: [Path]
  let device: [Path]
  let anonymous: [Path]
  let previous: [Path]
  let session: [Path]
  let app: [Path]
  let platform: [Path]
  let model: [Path]
  /// Every path once, with its dotted text (what ``unreadable(in:)`` looks at and names).
  private let every: [(place: String, path: Path)]

  /// The reader of `vendor`'s identity fields of `form`.
  init(_ vendor: Vendor, _ form: String) {
    let fields = vendor.identityFields(form)
    user = fields.user.map(Path.init)
    device = fields.device.map(Path.init)
    anonymous = fields.anonymous.map(Path.init)
    previous = fields.previous.map(Path.init)
    session = fields.session.map(Path.init)
    app = fields.app.map(Path.init)
    platform = fields.platform.map(Path.init)
    model = fields.model.map(Path.init)
    var every: [(place: String, path: Path)] = []
    for dotted in fields.user + fields.device + fields.anonymous + fields.previous + fields.session
      + fields.app
      + fields.platform + fields.model where !every.contains(where: { $0.place == dotted })
    {
      every.append((dotted, Path(dotted)))
    }
    self.every = every
  }

  /// The first of `paths` that holds a non-empty string or number, where `root` gives a path's
  /// first field; `skipping` leaves out values it accepts.
  static func first(
    _ paths: [Path], in root: (String) -> PropertyValue?, skipping: (String) -> Bool = { _ in false }
  ) -> String? {
    for path in paths {
      var value = root(path.head)
      for field in path.rest { value = element(field, of: value) }
      if let text = DeviceIdentity.present(Payload.string(value)), !skipping(text) { return text }
    }
    return nil
  }

  /// The identity fields `root` holds that are sent (present, not `null`) but name no one: an
  /// object, an array or a flag where an id (text or a number) is meant. ``identity(in:)`` passes
  /// over them to the next path, so a decoder reports them (``FieldAccount``), each by its dotted
  /// path once.
  func unreadable(in root: (String) -> PropertyValue?) -> [(place: String, value: PropertyValue)] {
    var found: [(place: String, value: PropertyValue)] = []
    for (place, path) in every {
      var value = root(path.head)
      for field in path.rest { value = Self.element(field, of: value) }
      guard let value, value != .null, Payload.string(value) == nil else { continue }
      found.append((place, value))
    }
    return found
  }

  /// The field `field` of `value`, or the first element of its array when written `name[0]`.
  private static func element(_ field: String, of value: PropertyValue?) -> PropertyValue? {
    guard field.hasSuffix("[0]") else { return Payload.objectOrNil(value)?[field] }
    return Payload.array(Payload.objectOrNil(value)?[String(field.dropLast(3))])?.first
  }

  /// The identity `root` holds, where what is logic (who is anonymous, which session counts) is
  /// the caller's to correct.
  func identity(in root: (String) -> PropertyValue?) -> DeviceIdentity {
    DeviceIdentity(
      deviceID: Self.first(device, in: root), app: Self.first(app, in: root),
      platform: Self.first(platform, in: root), model: Self.first(model, in: root),
      userID: Self.first(user, in: root),
      anonymousID: Self.first(anonymous, in: root), previousID: Self.first(previous, in: root),
      sessionID: Self.first(session, in: root))
  }
}
