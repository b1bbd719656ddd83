import TaggingPlan

/// Turns byte offsets in one UTF-8 text into lines and columns (columns count Unicode scalars, as
/// YAML's parser does). The line starts are found once and a line by binary search; a column counts
/// on from the previous lookup when that was on the same line and not past the offset, so a reader
/// asking in document order spends linear time in all (any order is still answered right). It
/// reads the bytes it was made with: they must outlive it.
struct LineTable {
  private let bytes: UnsafeBufferPointer<UInt8>
  /// The offset of each line's first byte.
  private var lineStarts: [Int] = [0]
  /// The last lookup: its offset, line (0-based) and column.
  private var last = (offset: 0, line: 0, column: 1)

  /// The lines of `bytes`.
  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    for offset in bytes.indices where bytes[offset] == UInt8(ascii: "\n") { lineStarts.append(offset + 1) }
  }

  /// The line and column of the byte at `offset` (or of the end, at `bytes.count`).
  mutating func location(of offset: Int) -> SourceLocation {
    let line = line(of: offset)
    var (from, column) = (lineStarts[line], 1)
    if last.line == line, last.offset <= offset { (from, column) = (last.offset, last.column) }
    for index in from..<offset where bytes[index] & 0xC0 != 0x80 { column += 1 }
    last = (offset, line, column)
    return SourceLocation(line: line + 1, column: column)
  }

  /// The 0-based line holding `offset`: the last whose start is not after it.
  private func line(of offset: Int) -> Int {
    var low = 1
    var high = lineStarts.count
    while low < high {
      let middle = (low + high) / 2
      if lineStarts[middle] <= offset { low = middle + 1 } else { high = middle }
    }
    return low - 1
  }
}
