/// Reads a recording's records once per distinct content: a record whose content key (kind, name,
/// properties, screen, outputs; its source, `seq`, time, history and session left out) matches an
/// earlier one's is only counted, not decoded. For readers whose result depends on that content
/// alone — `tagscope diff`'s profile, `tagscope plan infer`'s draft.
package enum RecordingContentScan {
  /// Reads the recording at `path` (`-` is standard input): `first` gets each record whose content
  /// is new, and whether its memo will be remembered, and returns a memo for its repeats (up to
  /// `limit` distinct contents; past them every record goes to `first`, not remembered); returns
  /// the recording's header, the memos and how often each one's content repeated (apart, at the
  /// same indices), and the `seq` of every record checked (``SequenceReport``). Unreadable
  /// lines go to `problem` (`file:line: reason`), drop markers'
  /// counts to `dropped`. The file is opened once (standard input can be read only once).
  package static func scan<Memo>(
    path: String, limit: Int, first: (Record, _ remembered: Bool) -> Memo, problem: (String) -> Void,
    dropped: (Int) -> Void
  ) throws(RecordingReadError) -> (
    header: RecordingHeader, memos: [Memo], repeats: [Int], sequence: SequenceReport
  ) {
    let reader = try RecordingReader(path: path)
    var sequence = SequenceReport(path: path)
    var known: [RecordContentKey: Int32] = [:]
    // Apart, so counting a repeat touches a plain [Int] (this generic is not specialized for its
    // callers' memos).
    var memos: [Memo] = []
    var counts: [Int] = []
    var builder = RecordContentKeyBuilder(keysSourcedRecords: true)
    while let raw = try reader.nextRawLine() {
      switch raw {
      case .overlong(let overlong):
        problem(overlong.description)
      case .line(let rawLine, let number, _, let terminated):
        var line = rawLine
        if let last = line.last, last == 13 { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
        builder.reset()
        let key = builder.decode(line)?.key
        if key != nil {
          sequence.check(
            seq: builder.seq, source: builder.hasSourceField ? builder.sourceBytes : nil, line: number)
        }
        if let key, let slot = known[key] {
          counts[Int(slot)] += 1
          continue
        }
        do {
          switch try RecordLineDecoder.decode(line) {
          case .record(let record):
            let remembered = key != nil && memos.count < min(limit, Int(Int32.max))
            let memo = first(record, remembered)
            if let key, remembered {
              known[key] = Int32(memos.count)
              memos.append(memo)
              counts.append(0)
            }
          case .header: break
          case .dropped(let marker): dropped(marker.count)
          }
        } catch {
          let reason =
            terminated ? error.description : "truncated last line (no newline at the end; \(error))"
          problem("\(path):\(number): \(reason)")
        }
      }
    }
    return (reader.header, memos, counts, sequence)
  }
}
