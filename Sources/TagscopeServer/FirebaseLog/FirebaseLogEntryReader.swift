import AnalyticsHub

/// Reads the text after an entry's phrase (see ``FirebaseLogLine``) into a ``FirebaseLogEntry``.
enum FirebaseLogEntryReader {
  struct Failure: Error {
    var message: String
  }

  /// `lead` is a restatement's words before its phrase (`Event logged. `), kept in its raw text.
  static func entry(
    _ phrase: FirebaseLogLine.Phrase, text: Substring, origin: FirebaseLogOrigin, lead: String = ""
  )
    throws(Failure) -> FirebaseLogEntry
  {
    let raw = lead + "\(phrase.text)" + text
    switch phrase {
    case .iOSEvent:
      // `app, preferred_temperature_changed, {` … `}`
      guard let comma = text.range(of: ", "), let block = text[comma.upperBound...].range(of: ", {") else {
        throw Failure(message: "a logged event's line is not 'origin, name, {parameters}'")
      }
      let name = FirebaseLogValueReader.splitName(
        text[comma.upperBound..<block.lowerBound], publicNames: FirebaseShortNames.events)
      let parameters = try read(name.name) { () throws(FirebaseLogValueReader.Failure) in
        try FirebaseLogValueReader.iOSParameters(String(text[text.index(block.lowerBound, offsetBy: 2)...]))
      }
      return try event(name, origin: String(text[..<comma.lowerBound]), parameters, source: origin, raw: raw)
    case .iOSEventLogged, .iOSEventRestated:
      // `preferred_temperature_changed, {` … `}`, or the name alone; the origin is `_o`'s.
      let block = text.range(of: ", {")
      let name = FirebaseLogValueReader.splitName(
        text[..<(block?.lowerBound ?? text.endIndex)], publicNames: FirebaseShortNames.events)
      var parameters: [FirebaseLogParameter] = []
      if let block {
        parameters = try read(name.name) { () throws(FirebaseLogValueReader.Failure) in
          try FirebaseLogValueReader.iOSParameters(String(text[text.index(block.lowerBound, offsetBy: 2)...]))
        }
      }
      return try event(name, origin: printedOrigin(parameters), parameters, source: origin, raw: raw)
    case .androidEvent:
      // `auto,name=user_engagement(_e),params=Bundle[{…}]`
      guard let nameField = text.range(of: ",name="), let params = text.range(of: ",params=") else {
        throw Failure(message: "a logged event's line is not 'origin=…,name=…,params=Bundle[{…}]'")
      }
      let name = FirebaseLogValueReader.splitName(
        text[nameField.upperBound..<params.lowerBound], publicNames: FirebaseShortNames.events)
      let parameters = try read(name.name) { () throws(FirebaseLogValueReader.Failure) in
        try FirebaseLogValueReader.androidParameters(String(text[params.upperBound...]))
      }
      return try event(
        name, origin: String(text[..<nameField.lowerBound]), parameters, source: origin, raw: raw)
    case .androidFrontEndEvent:
      // `purchase(_...), Bundle[{…}]`
      guard let bundle = text.range(of: ", Bundle[") else {
        throw Failure(message: "a logged event's line is not 'name, Bundle[{…}]'")
      }
      let name = FirebaseLogValueReader.splitName(
        text[..<bundle.lowerBound], publicNames: FirebaseShortNames.events)
      let parameters = try read(name.name) { () throws(FirebaseLogValueReader.Failure) in
        try FirebaseLogValueReader.androidParameters(
          String(text[text.index(bundle.lowerBound, offsetBy: 2)...]))
      }
      return try event(name, origin: printedOrigin(parameters), parameters, source: origin, raw: raw)
    case .androidEventRecorded:
      // `Event{appId='com.example', name='search', params=Bundle[{search_term=…, _o=app}]}`
      guard let nameField = text.range(of: "name='"), let params = text.range(of: ", params="),
        nameField.upperBound <= params.lowerBound, text.hasSuffix("}"),
        let quote = text[nameField.upperBound..<params.lowerBound].lastIndex(of: "'")
      else {
        throw Failure(message: "a recorded event's line is not 'Event{appId=…, name=…, params=Bundle[{…}]}'")
      }
      let name = FirebaseLogValueReader.splitName(
        text[nameField.upperBound..<quote], publicNames: FirebaseShortNames.events)
      let parameters = try read(name.name) { () throws(FirebaseLogValueReader.Failure) in
        try FirebaseLogValueReader.androidParameters(
          String(text[params.upperBound..<text.index(before: text.endIndex)]))
      }
      // The app id names the app when the logcat prefix does not.
      var source = origin
      if source.process == nil, let appID = text.range(of: "appId='"),
        let end = text[appID.upperBound...].firstIndex(of: "'")
      {
        source.process = String(text[appID.upperBound..<end])
      }
      return try event(name, origin: printedOrigin(parameters), parameters, source: source, raw: raw)
    case .iOSSetProperty, .androidFrontEndSetProperty, .androidSetProperty, .iOSPropertySet:
      // `MyApp_gender, Female`, `ga_session_id (_sid), 1647599957`
      guard let comma = text.range(of: ", ") else {
        throw Failure(message: "a user property line is not 'name, value'")
      }
      let name = FirebaseLogValueReader.splitName(text[..<comma.lowerBound])
      try checkName(name.name, what: "a user property")
      let printed = text[comma.upperBound...].trimmingCharacters(in: .whitespaces)
      // `PropertyValue` takes `nil` for `.null`: a removed property is `Optional.none`.
      let value: PropertyValue? =
        ["null", "(null)", "<null>"].contains(printed)
        ? Optional<PropertyValue>.none : Optional.some(propertyValue(printed, bySDK: name.short != nil))
      return .userProperty(
        FirebaseLoggedUserProperty(
          name: name.name, shortName: name.short, value: value, source: origin, raw: raw))
    case .iOSRemoveProperty, .iOSPropertyRemoved:
      let name = FirebaseLogValueReader.splitName(text)
      try checkName(name.name, what: "a removed user property")
      return .userProperty(
        FirebaseLoggedUserProperty(
          name: name.name, shortName: name.short, value: nil, source: origin, raw: raw))
    }
  }

  /// A user property's value: the app's are text, as Firebase keeps them (`84` and `"84"` are
  /// the string "84"); the SDK's own (`ga_session_id (_sid)`) are typed like parameters.
  static func propertyValue(_ printed: String, bySDK: Bool) -> PropertyValue {
    if bySDK { return FirebaseLogValueReader.scalar(printed) }
    if printed.count >= 2, printed.hasPrefix("\""), printed.hasSuffix("\"") {
      return .string(String(printed.dropFirst().dropLast()))
    }
    return .string(printed)
  }

  /// The origin a restatement or a front-end line prints as the `_o` parameter.
  private static func printedOrigin(_ parameters: [FirebaseLogParameter]) -> String? {
    parameters.first { $0.shortName == "_o" || $0.name == "ga_event_origin" }?.value.stringValue
  }

  private static func read(
    _ event: String, _ body: () throws(FirebaseLogValueReader.Failure) -> [FirebaseLogParameter]
  ) throws(Failure) -> [FirebaseLogParameter] {
    do { return try body() } catch {
      throw Failure(message: "logged event \(event): \(error.message)")
    }
  }

  private static func event(
    _ name: (name: String, short: String?), origin: String?, _ parameters: [FirebaseLogParameter],
    source: FirebaseLogOrigin, raw: String
  ) throws(Failure) -> FirebaseLogEntry {
    try checkName(name.name, what: "a logged event")
    let origin = origin?.trimmingCharacters(in: .whitespaces)
    return .event(
      FirebaseLoggedEvent(
        name: name.name, shortName: name.short, origin: origin?.isEmpty == false ? origin : nil,
        parameters: parameters, source: source, raw: raw))
  }

  private static func checkName(_ name: String, what: String) throws(Failure) {
    guard !name.isEmpty else { throw Failure(message: "\(what) has no name") }
    guard !name.contains(where: { $0 == "\n" || $0 == "," || $0 == "{" || $0 == "=" }) else {
      throw Failure(message: "\(what) has no readable name ('\(name.prefix(60))')")
    }
  }
}
