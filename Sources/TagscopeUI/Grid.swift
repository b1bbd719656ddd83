/// One terminal cell: a grapheme and its style. A wide grapheme occupies its cell and the next one,
/// which is a continuation cell (`width == 0`).
public struct Cell: Sendable, Hashable {
  public var glyph: Character
  public var style: Style
  /// Columns the glyph takes: 1, 2, or 0 for the right half of a wide glyph.
  public var width: UInt8

  /// A cell.
  public init(glyph: Character, style: Style = .plain, width: UInt8 = 1) {
    self.glyph = glyph
    self.style = style
    self.width = width
  }

  /// A blank cell.
  public static let blank = Cell(glyph: " ")
}

/// Line directions meeting in a cell, turned into box-drawing characters once all lines are drawn.
struct LineMask: OptionSet, Hashable {
  let rawValue: UInt8
  static let up = LineMask(rawValue: 1)
  static let down = LineMask(rawValue: 2)
  static let left = LineMask(rawValue: 4)
  static let right = LineMask(rawValue: 8)
}

/// A frame: a rectangle of cells that `render` fills and the backend diffs against the previous one.
public struct Grid: Sendable, Hashable {
  public let size: Size
  /// Cells row by row.
  public private(set) var cells: [Cell]
  private var lines: [UInt8]

  /// A blank grid.
  public init(size: Size) {
    self.size = size
    cells = Array(repeating: .blank, count: max(0, size.width * size.height))
    lines = []
  }

  /// The cell at `(column, row)`.
  public subscript(column: Int, row: Int) -> Cell { cells[row * size.width + column] }

  /// Writes `text` at `(column, row)`, clipped to `maxWidth` columns (and the grid); a wide glyph
  /// that does not fit is replaced by a space. Returns the columns written.
  @discardableResult
  public mutating func put(
    _ text: SafeText, column: Int, row: Int, style: Style = .plain, maxWidth: Int = .max
  ) -> Int {
    guard row >= 0 && row < size.height && column < size.width else { return 0 }
    let limit = maxWidth >= size.width - column ? size.width : column + maxWidth
    var x = column
    if text.text.utf8.allSatisfy({ $0 < 0x80 }) {
      for byte in text.text.utf8 {
        if x >= limit { break }
        if x >= 0 { store(Cell(glyph: Character(Unicode.Scalar(byte)), style: style), column: x, row: row) }
        x += 1
      }
      return max(0, x - column)
    }
    for character in text.text {
      let width = DisplayWidth.of(character)
      if width == 0 { continue }
      if x + width > limit {
        if x < limit && x >= 0 { store(Cell(glyph: " ", style: style), column: x, row: row) }
        x = limit
        break
      }
      if x >= 0 {
        store(Cell(glyph: character, style: style, width: UInt8(width)), column: x, row: row)
        if width == 2 { store(Cell(glyph: " ", style: style, width: 0), column: x + 1, row: row) }
      }
      x += width
    }
    return max(0, x - column)
  }

  /// Stores one cell, blanking the other half of a wide glyph it overwrites.
  private mutating func store(_ cell: Cell, column: Int, row: Int) {
    let index = row * size.width + column
    let old = cells[index]
    if old.width == 0 && cell.width != 0 && column > 0 && cells[index - 1].width == 2 {
      cells[index - 1] = Cell(glyph: " ", style: cells[index - 1].style)
    }
    if old.width == 2 && cell.width != 2 && column + 1 < size.width && cells[index + 1].width == 0 {
      cells[index + 1] = Cell(glyph: " ", style: old.style)
    }
    cells[index] = cell
  }

  /// Writes `text` clipped to `width` columns; when it is longer its last visible column becomes `…`.
  @discardableResult
  public mutating func putTruncated(
    _ text: SafeText, column: Int, row: Int, width: Int, style: Style = .plain
  ) -> Int {
    guard width > 0 else { return 0 }
    if text.width <= width { return put(text, column: column, row: row, style: style, maxWidth: width) }
    let written = put(text, column: column, row: row, style: style, maxWidth: width - 1)
    put("…", column: column + written, row: row, style: style, maxWidth: 1)
    return written + 1
  }

  /// Fills `rect` with blanks of `style`.
  public mutating func fill(_ rect: Rect, style: Style = .plain) {
    for row in max(0, rect.y)..<min(size.height, rect.y + rect.height) {
      for column in max(0, rect.x)..<min(size.width, rect.x + rect.width) {
        store(Cell(glyph: " ", style: style), column: column, row: row)
      }
    }
  }

  /// Applies `style` to the cells of one row segment, keeping their glyphs.
  public mutating func restyle(row: Int, from column: Int, width: Int, style: Style) {
    guard row >= 0 && row < size.height else { return }
    for x in max(0, column)..<min(size.width, column + width) {
      cells[row * size.width + x].style = style
    }
  }

  /// Adds a horizontal line from `column` to `toColumn` inclusive; junctions are resolved by
  /// ``resolveLines(style:)``.
  mutating func horizontalLine(row: Int, from column: Int, to toColumn: Int) {
    guard toColumn > column else { return }
    for x in column...toColumn {
      var mask: LineMask = []
      if x > column { mask.insert(.left) }
      if x < toColumn { mask.insert(.right) }
      addLine(mask, column: x, row: row)
    }
  }

  /// Adds a vertical line from `row` to `toRow` inclusive.
  mutating func verticalLine(column: Int, from row: Int, to toRow: Int) {
    guard toRow > row else { return }
    for y in row...toRow {
      var mask: LineMask = []
      if y > row { mask.insert(.up) }
      if y < toRow { mask.insert(.down) }
      addLine(mask, column: column, row: y)
    }
  }

  /// Adds a box outline.
  mutating func box(_ rect: Rect) {
    guard rect.width >= 2 && rect.height >= 2 else { return }
    let right = rect.x + rect.width - 1
    let bottom = rect.y + rect.height - 1
    horizontalLine(row: rect.y, from: rect.x, to: right)
    horizontalLine(row: bottom, from: rect.x, to: right)
    verticalLine(column: rect.x, from: rect.y, to: bottom)
    verticalLine(column: right, from: rect.y, to: bottom)
  }

  private mutating func addLine(_ mask: LineMask, column: Int, row: Int) {
    guard column >= 0 && column < size.width && row >= 0 && row < size.height else { return }
    if lines.isEmpty { lines = Array(repeating: 0, count: cells.count) }
    lines[row * size.width + column] |= mask.rawValue
  }

  /// Turns the lines added so far into box-drawing glyphs (`─ │ ┌ ┬ ┼ …`) and forgets them.
  mutating func resolveLines(style: Style) {
    guard !lines.isEmpty else { return }
    for index in lines.indices where lines[index] != 0 {
      store(
        Cell(glyph: Self.boxGlyph(LineMask(rawValue: lines[index])), style: style),
        column: index % size.width, row: index / size.width)
    }
    lines = []
  }

  private static func boxGlyph(_ mask: LineMask) -> Character {
    switch (mask.contains(.up), mask.contains(.down), mask.contains(.left), mask.contains(.right)) {
    case (false, false, _, _): return "─"
    case (_, _, false, false): return "│"
    case (false, true, false, true): return "┌"
    case (false, true, true, false): return "┐"
    case (true, false, false, true): return "└"
    case (true, false, true, false): return "┘"
    case (true, true, false, true): return "├"
    case (true, true, true, false): return "┤"
    case (false, true, true, true): return "┬"
    case (true, false, true, true): return "┴"
    default: return "┼"
    }
  }

  /// Positions (row-major cell indices) whose cells differ from `previous`, skipping continuation
  /// cells (drawn with their wide glyph); every drawable cell when the sizes differ. The backend
  /// draws only these.
  public func changedCells(since previous: Grid?) -> [Int] {
    var changed: [Int] = []
    let full = previous?.size != size
    for index in cells.indices where cells[index].width != 0 {
      if full || previous!.cells[index] != cells[index] {
        changed.append(index)
      } else if cells[index].width == 2 && index + 1 < cells.count
        && previous!.cells[index + 1] != cells[index + 1]
      {
        changed.append(index)
      }
    }
    return changed
  }

  /// The grid as text, one line per row, continuation cells omitted and trailing spaces trimmed: the
  /// form of snapshot tests.
  public var text: String {
    var rows: [String] = []
    rows.reserveCapacity(size.height)
    for row in 0..<size.height {
      var line = ""
      for column in 0..<size.width {
        let cell = cells[row * size.width + column]
        if cell.width == 0 { continue }
        line.append(cell.glyph)
      }
      while line.last == " " { line.removeLast() }
      rows.append(line)
    }
    return rows.joined(separator: "\n")
  }
}
