import TaggingPlan
import TagscopeRecording

/// The JSON of what identical records' violations share (their detail: rule, message, expected,
/// actual), written once and copied for each later violation holding the same detail: a recording
/// repeats the same broken tag thousands of times, and its report writes them at copying speed.
///
/// Kept up to ``byteLimit`` bytes (later details are written each time); valid for one report,
/// whose violations keep their details alive (an identity is never reused while it is kept), or,
/// for a streamed report whose violations are let go once written, keeping alive the details it
/// holds fragments of itself.
struct ViolationFragments {
  /// Bytes of JSON kept at most for a report held whole.
  static let byteLimit = 32 << 20
  /// The same for a streamed report: each distinct detail costs its object too, and a recording
  /// of distinct tags has as many details as records, each written once.
  static let streamedByteLimit = 4 << 20

  private let limit: Int
  /// The violations whose details have fragments (streamed reports only).
  private var kept: [PlanViolation]?
  private var bytes: [UInt8] = []
  /// Where each detail's head (severity … message) and tail (planFile … actual) are in `bytes`.
  private var spans: [ObjectIdentifier: (head: Range<Int>, tail: Range<Int>)] = [:]

  /// Fragments for a report whose violations outlive it, or (`streamed`) that lets them go.
  init(streamed: Bool = false) {
    limit = streamed ? Self.streamedByteLimit : Self.byteLimit
    if streamed { kept = [] }
  }

  /// Writes `violation` at `place`, as ``JSONReport/write(_:at:into:)`` does.
  mutating func write(_ violation: PlanViolation, at place: JSONReport.Place?, into out: inout JSONWriter) {
    let identity = violation.detailIdentity
    var span = spans[identity]
    if span == nil && bytes.count < limit {
      kept?.append(violation)
      let start = bytes.count
      JSONWriter.write(into: &bytes, capacity: 512) { fragment in
        fragment.escapesLineSeparators = out.escapesLineSeparators
        JSONReport.writeShared(head: violation, into: &fragment)
      }
      let middle = bytes.count
      JSONWriter.write(into: &bytes, capacity: 1024) { fragment in
        fragment.escapesLineSeparators = out.escapesLineSeparators
        JSONReport.writeShared(tail: violation, into: &fragment)
      }
      span = (start..<middle, middle..<bytes.count)
      spans[identity] = span
    }
    guard let (head, tail) = span else { return JSONReport.write(violation, at: place, into: &out) }
    out.openObject()
    out.key("seq", first: true)
    out.unsigned(violation.seq)
    bytes.withUnsafeBufferPointer { kept in
      out.raw(bytes: UnsafeBufferPointer(rebasing: kept[head]))
      JSONReport.writePlace(place, into: &out)
      out.raw(bytes: UnsafeBufferPointer(rebasing: kept[tail]))
    }
    out.closeObject()
  }
}
