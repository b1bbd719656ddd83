/// The source label of an SDK device: its app and device as the payload names them,
/// `Shop@iPhone15,2 · 4F2A` (app, model or platform, the device id's first characters), or the
/// SDK's name for an app it does not name (`amplitude@iOS · 9C1B`).
enum DeviceLabel {
  /// Ids up to this many characters are shown whole; longer ones by their first 4, 8, then all.
  static let wholeIDLength = 12
  /// App, model and platform names and ids are cut to this many characters.
  static let partLength = 40

  /// The labels to try for a device, shortest first: the id's prefix grows until the label is
  /// free, then `#2`, `#3`… are added to the whole id's label.
  static func candidates(app: String, identity: DeviceIdentity, id fullID: String) -> some Sequence<String> {
    let id = String(fullID.prefix(partLength))
    let lengths = id.count <= wholeIDLength ? [id.count] : [4, 8, id.count]
    let device = (identity.model ?? identity.platform).map { String($0.prefix(partLength)) }
    let base = lengths.lazy.map { length in
      label(app: app, device: device, id: String(id.prefix(length)))
    }
    let whole = label(app: app, device: device, id: id)
    let numbered = (2...).lazy.map { "\(whole) #\($0)" }
    return [AnySequence(base), AnySequence(numbered)].joined()
  }

  private static func label(app: String, device: String?, id: String) -> String {
    let name = String(app.prefix(partLength))
    guard let device else { return "\(name)@\(id)" }
    return "\(name)@\(device) · \(id)"
  }
}
