import AnalyticsHub
import TagscopeRecording

/// Finds personal data in the values a record's providers received (the calls of every output not
/// `blocked`, and the fields its batch carries beside them): strings by every detector, integers as card numbers (and as phone numbers under a
/// phone key), and latitude/longitude key pairs of one object with 4 or more decimals each.
///
/// A call is first probed for anything at all with no path kept (what almost every call ends
/// with); only a call where something is found is walked again keeping the path to each value.
/// A value no detector could match under any key is passed without reading its key, and a
/// validation's memo answers a text scanned before under the same key (with the key's context).
public enum PrivacyScan {
  /// The findings of `kinds` in `record`'s provider calls, one per kind per value.
  public static func findings(in record: Record, kinds: PIIKinds = .all) -> [PrivacyFinding] {
    var memo = PrivacyMemo()
    return findings(in: record, kinds: kinds, memo: &memo)
  }

  /// ``findings(in:kinds:)``, remembering in `memo` what each text held, for the next records.
  static func findings(in record: Record, kinds: PIIKinds = .all, memo: inout PrivacyMemo) -> [PrivacyFinding]
  {
    var found: [PrivacyFinding] = []
    // By index: a record's outputs and calls are read in place, not copied one by one.
    for outputIndex in record.outputs.indices where record.outputs[outputIndex].status != .blocked {
      let calls = record.outputs[outputIndex].calls
      for callIndex in calls.indices where holdsAny(calls[callIndex].parameters, kinds: kinds, memo: &memo) {
        let call = calls[callIndex]
        let provider = record.outputs[outputIndex].provider
        let label = call.name.map { "\(call.method) \($0)" } ?? call.method
        var trail = PrivacyTrail(base: "") { kind, path, length in
          found.append(
            PrivacyFinding(
              kind: kind, provider: provider, output: outputIndex, call: callIndex, callLabel: label,
              path: path, length: length))
        }
        walk(object: call.parameters, into: &trail, kinds: kinds, memo: &memo)
      }
      // The fields an SDK's batch carries beside its calls (mParticle's `user_identities`),
      // kept on the batch's first record: the provider received them too.
      let extra = record.outputs[outputIndex].extra
      if !extra.isEmpty, case .object(let batch)? = extra[CallCatalogue.batchField],
        holdsAny(batch, kinds: kinds, memo: &memo)
      {
        let provider = record.outputs[outputIndex].provider
        var trail = PrivacyTrail(base: "") { kind, path, length in
          found.append(
            PrivacyFinding(
              kind: kind, provider: provider, output: outputIndex, call: 0, inBatch: true,
              callLabel: CallCatalogue.batchMethod, path: path, length: length))
        }
        walk(object: batch, into: &trail, kinds: kinds, memo: &memo)
      }
    }
    return found
  }

  /// Whether anything of `kinds` is in `object`, stopping at the first finding.
  static func holdsAny(_ object: Properties, kinds: PIIKinds, memo: inout PrivacyMemo) -> Bool {
    var probe = PrivacyProbe()
    walk(object: object, into: &probe, kinds: kinds, memo: &memo)
    return probe.found
  }

  /// Reports each kind found in `value` (named `key`, at `path`) with its path and its length.
  public static func walk(
    _ value: PropertyValue, key: PIIKeyContext, path: String, kinds: PIIKinds = .all,
    report: (PIIKind, String, Int) -> Void
  ) {
    withoutActuallyEscaping(report) { report in
      var trail = PrivacyTrail(base: path, report: report)
      var memo = PrivacyMemo()
      walk(value, key: key, into: &trail, kinds: kinds, memo: &memo)
    }
  }

  static func walk(
    object: Properties, path: String, kinds: PIIKinds, report: (PIIKind, String, Int) -> Void
  ) {
    withoutActuallyEscaping(report) { report in
      var trail = PrivacyTrail(base: path, report: report)
      var memo = PrivacyMemo()
      walk(object: object, into: &trail, kinds: kinds, memo: &memo)
    }
  }

  static func walk<Sink: PrivacySink>(
    _ value: PropertyValue, key: PIIKeyContext, into sink: inout Sink, kinds: PIIKinds,
    memo: inout PrivacyMemo
  ) {
    var key = PrivacyKey(context: key)
    walk(value, key: &key, into: &sink, kinds: kinds, memo: &memo)
  }

  /// Walks `value` under `key`, whose context is read only when a value needs it: a text a
  /// detector could match and the memo does not know, a large integer.
  private static func walk<Sink: PrivacySink>(
    _ value: PropertyValue, key: inout PrivacyKey, into sink: inout Sink, kinds: PIIKinds,
    memo: inout PrivacyMemo
  ) {
    switch value {
    case .string(let text):
      guard let result = scan(text, key: &key, kinds: kinds, memo: &memo) else { return }
      for kind in result.found { sink.report(kind, length: text.count) }
    case .int(let number) where number.magnitude >= 10_000_000:
      // A phone number under a phone key takes 8 digits, a card number (any key) 13 or more.
      guard number.magnitude >= 1_000_000_000_000 || key.context.phone else { return }
      report(String(number), key: &key, kinds: kinds.intersection(.numbers), into: &sink, memo: &memo)
    case .largeInteger(let number):
      report(number.text, key: &key, kinds: kinds.intersection(.numbers), into: &sink, memo: &memo)
    case .array(let elements):
      for (index, element) in elements.enumerated() where !sink.isDone {
        sink.enter(index: index)
        walk(element, key: &key, into: &sink, kinds: kinds, memo: &memo)
        sink.leave()
      }
    case .object(let object):
      walk(object: object, into: &sink, kinds: kinds, memo: &memo)
    default:
      break
    }
  }

  static func walk<Sink: PrivacySink>(
    object: Properties, into sink: inout Sink, kinds: PIIKinds, memo: inout PrivacyMemo
  ) {
    var latitude: (path: String, length: Int)?
    var longitude = false
    // By index, switching on the value in place: a value that cannot hold anything is passed
    // without copying it or its key (most of a call's values).
    for index in object.indices where !sink.isDone {
      switch object[index].value {
      case .object(let inner):
        // An object's own key says nothing about what it holds: each of its keys is read in turn.
        sink.enter(key: object[index].key)
        walk(object: inner, into: &sink, kinds: kinds, memo: &memo)
        sink.leave()
      case .string(let text):
        // The key is read only for a text its summary lets through, its context only when the
        // memo does not know the text under that key.
        var key = PrivacyKey(name: object[index].key)
        guard let result = scan(text, key: &key, kinds: kinds, memo: &memo) else { continue }
        sink.enter(key: object[index].key)
        defer { sink.leave() }
        if kinds.contains(.geo), result.context.latitude || result.context.longitude,
          let length = preciseLength(.string(text), key: result.context)
        {
          if result.context.latitude { latitude = (sink.path, length) } else { longitude = true }
        }
        for kind in result.found { sink.report(kind, length: text.count) }
      case .int(let number) where number.magnitude < 10_000_000:
        // 8 digits are the fewest any detector takes (a phone number under a phone key).
        continue
      case .double(let number) where !(number.magnitude <= 180) || isWholeThousandths(number):
        // Past any coordinate's limit (or not a number), or 3 decimals or fewer: not precise.
        continue
      case .int, .double, .largeInteger, .array:
        var key = PrivacyKey(name: object[index].key)
        let value = object[index].value
        sink.enter(key: object[index].key)
        defer { sink.leave() }
        if kinds.contains(.geo), case .double = value, key.context.latitude || key.context.longitude,
          let length = preciseLength(value, key: key.context)
        {
          if key.context.latitude { latitude = (sink.path, length) } else { longitude = true }
        }
        walk(value, key: &key, into: &sink, kinds: kinds, memo: &memo)
      default:
        continue
      }
    }
    if let latitude, longitude { sink.report(.geo, at: latitude.path, length: latitude.length) }
  }

  /// Whether `number` is the nearest double to a whole number of thousandths: it prints with 3
  /// decimals or fewer.
  private static func isWholeThousandths(_ number: Double) -> Bool {
    (number * 1000).rounded() / 1000 == number
  }

  /// The length of `value` as text when it is a coordinate with 4 or more decimals within its
  /// key's limit (90 for a latitude, 180 for a longitude), else `nil`.
  private static func preciseLength(_ value: PropertyValue, key: PIIKeyContext) -> Int? {
    let limit: Double = key.latitude ? 90 : 180
    let text: String
    switch value {
    case .double(let number):
      // A number within the limit that is the nearest double to a whole number of thousandths
      // prints with 3 decimals or fewer: not precise, and no text to make.
      guard abs(number) <= limit, !isWholeThousandths(number) else { return nil }
      text = "\(number)"
    case .string(let string): text = string
    default: return nil
    }
    var bytes = text
    return bytes.withUTF8 { PIIScan.isPreciseCoordinate($0, limit: limit) } ? text.count : nil
  }

  /// What `text` (named by `key`) holds of `kinds`, or `nil` when its summary rules every
  /// detector out under any key (a phone number takes 8 digits, a summary lets 4 through). A
  /// text named by a key is answered by `memo` when it was scanned under that key before;
  /// otherwise its key's context is read and it is scanned. The bytes are summarized, and
  /// hashed for the memo, in one reading.
  ///
  /// The kinds are reported once each: the kinds other than geolocation in text order
  /// (overlapping matches merged: the first one's kind stands), then geolocation, scanned apart
  /// so a pair's match does not hide another kind's.
  private static func scan(
    _ text: String, key: inout PrivacyKey, kinds: PIIKinds, memo: inout PrivacyMemo
  ) -> PrivacyMemo.Result? {
    var bytes = text
    let named = key.name != nil
    let (summary, hash) = bytes.withUTF8 { utf8 -> (PIIScanner.Summary, UInt64) in
      let summary = PIIScanner.Summary(utf8)
      return (summary, named && summary.mayHoldAny ? PrivacyMemo.hash(utf8) : 0)
    }
    guard summary.mayHoldAny else { return nil }
    func scanned(_ context: PIIKeyContext) -> PrivacyMemo.Result {
      PrivacyMemo.Result(
        context: context, found: kindsFound(in: text, summary: summary, key: context, kinds: kinds))
    }
    guard let name = key.name else { return scanned(key.context) }
    return memo.result(for: text, textHash: hash, key: name, looking: kinds) { scanned(key.context) }
  }

  /// Reports what the digits of a number (`text`) hold of `kinds`.
  private static func report<Sink: PrivacySink>(
    _ text: String, key: inout PrivacyKey, kinds: PIIKinds, into sink: inout Sink, memo: inout PrivacyMemo
  ) {
    guard !kinds.isEmpty, let result = scan(text, key: &key, kinds: kinds, memo: &memo) else { return }
    for kind in result.found { sink.report(kind, length: text.count) }
  }

  /// The kinds of `kinds` found in `text` (whose summary is `summary`), each once, in the order
  /// ``scan(_:key:kinds:memo:)`` reports them.
  private static func kindsFound(
    in text: String, summary: PIIScanner.Summary, key: PIIKeyContext, kinds: PIIKinds
  ) -> [PIIKind] {
    var bytes = text
    let matches = bytes.withUTF8 { utf8 -> [PIIMatch] in
      var matches: [PIIMatch] = []
      var steps = 0
      let others = kinds.subtracting(.geolocation)
      if !others.isEmpty {
        PIIScanner.scan(utf8, summary: summary, key: key, kinds: others, into: &matches, steps: &steps)
      }
      if kinds.contains(.geo) {
        PIIScanner.scan(utf8, summary: summary, key: key, kinds: .geolocation, into: &matches, steps: &steps)
      }
      return matches
    }
    var reported: PIIKinds = []
    var found: [PIIKind] = []
    for match in matches where !reported.contains(match.kind) {
      reported.insert(PIIKinds(match.kind))
      found.append(match.kind)
    }
    return found
  }
}

/// The key naming a value in ``PrivacyScan``'s walk: its name (what the memo knows a text by) and
/// its context, made from the name the first time a value needs it.
private struct PrivacyKey {
  /// The key's name; `nil` when the walk was given a context and no name.
  let name: String?
  private var known: PIIKeyContext?

  /// The key `name`, its context not yet read.
  init(name: String) {
    self.name = name
    known = nil
  }

  /// A key known by its context alone.
  init(context: PIIKeyContext) {
    name = nil
    known = context
  }

  /// The key's context, read from its name once.
  var context: PIIKeyContext {
    mutating get {
      if let known { return known }
      let context = PIIKeyContext(key: name ?? "")
      known = context
      return context
    }
  }
}
