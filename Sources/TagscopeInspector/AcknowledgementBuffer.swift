import TagscopeRecording

/// The records a ``RemoteSink`` sent and `tagscope listen` has not acknowledged yet, in `seq`
/// order, and the server's acknowledgement lines (`{"ack":SEQ}`) as they arrive in pieces.
struct AcknowledgementBuffer {
  private var lines: [PendingLine] = []
  private var head = 0
  private var partial: [UInt8] = []
  /// The highest `seq` the server acknowledged.
  private(set) var acknowledged: UInt64?

  /// The longest acknowledgement line kept while incomplete; a longer one is not an acknowledgement.
  static let lineLimit = 256

  var count: Int { lines.count - head }
  var isEmpty: Bool { head == lines.count }

  /// The lines, in order, as one send.
  var bytes: [UInt8] {
    var out: [UInt8] = []
    for line in lines[head...] { out += line.bytes }
    return out
  }

  mutating func append(_ line: PendingLine) { lines.append(line) }

  mutating func removeOldest(_ count: Int) {
    head += min(count, self.count)
    compact()
  }

  /// Reads bytes from the server; `true` when they held an acknowledgement. Forgets the lines it
  /// covers.
  mutating func read(_ bytes: [UInt8]) -> Bool {
    var found = false
    for byte in bytes {
      guard byte == 10 else {
        if partial.count < Self.lineLimit { partial.append(byte) }
        continue
      }
      defer { partial.removeAll(keepingCapacity: true) }
      guard partial.count < Self.lineLimit,
        case .object(let object)? = try? JSONParser.parse(partial), case .int(let value)? = object["ack"],
        value >= 0
      else { continue }
      found = true
      acknowledged = max(acknowledged ?? 0, UInt64(value))
    }
    if let acknowledged {
      while head < lines.count, let seq = lines[head].seq, seq <= acknowledged { head += 1 }
      compact()
    }
    return found
  }

  private mutating func compact() {
    if head == lines.count {
      lines.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 4096 && head * 2 > lines.count {
      lines.removeFirst(head)
      head = 0
    }
  }
}
