import CNcursesw
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The thin ncurses backend: opens the terminal with `newterm`, draws only the cells that changed
/// since the last frame, and decodes keys, mouse and resizes into messages.
///
/// Not thread-safe by design: one thread (the event loop) owns it and makes every curses call.
final class CursesScreen {
  private let screen: OpaquePointer
  private var previous: Grid?
  private let colors: Bool
  private var grayPair: Int16 = 0
  private let input: UnsafeMutablePointer<FILE>?
  /// The descriptor keys arrive on (standard input, or the terminal when stdin carries data).
  let inputDescriptor: Int32

  /// Checks that the process runs on a UTF-8 terminal and opens it.
  ///
  /// `setlocale` comes first (or wide text is garbled); `newterm` rather than `initscr`, which exits
  /// the process on an unknown `TERM`.
  init() throws(TerminalError) {
    guard isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
    setlocale(LC_ALL, "")
    guard tagscope_codeset_is_utf8() != 0 else {
      let name = setlocale(LC_CTYPE, nil).map { String(cString: $0) } ?? ""
      throw .noUTF8Locale(name)
    }
    let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
    guard !term.isEmpty else { throw .unknownTerminal(term) }
    var keyboard: UnsafeMutablePointer<FILE>?
    if isatty(STDIN_FILENO) == 1 {
      keyboard = nil
      inputDescriptor = STDIN_FILENO
    } else {
      guard let tty = tagscope_open_tty() else { throw .notATerminal }
      keyboard = tty
      inputDescriptor = fileno(tty)
    }
    guard let opened = tagscope_newterm(term, keyboard ?? tagscope_stdin()) else {
      if let keyboard { fclose(keyboard) }
      throw .unknownTerminal(term)
    }
    input = keyboard
    screen = opened
    set_term(screen)
    set_escdelay(25)
    cbreak()
    noecho()
    nonl()
    keypad(tagscope_stdscr(), true)
    nodelay(tagscope_stdscr(), true)
    curs_set(0)
    mousemask(tagscope_mouse_mask(), nil)
    mouseinterval(0)
    let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    colors = !noColor && has_colors()
    if colors {
      start_color()
      use_default_colors()
      let palette: [Int16] = [
        -1, Int16(COLOR_RED), Int16(COLOR_GREEN), Int16(COLOR_YELLOW), Int16(COLOR_BLUE),
        Int16(COLOR_MAGENTA), Int16(COLOR_CYAN),
      ]
      for (pair, color) in palette.enumerated() where pair > 0 { init_pair(Int16(pair), color, -1) }
      if tagscope_colors() >= 16 {
        init_pair(7, 8, -1)
        grayPair = 7
      }
    }
  }

  /// The terminal size.
  var size: Size {
    var rows: Int32 = 0
    var columns: Int32 = 0
    tagscope_getmaxyx(tagscope_stdscr(), &rows, &columns)
    return Size(width: Int(columns), height: Int(rows))
  }

  /// Draws `grid`, writing only the cells that differ from the previous frame.
  func draw(_ grid: Grid) {
    let full = previous?.size != grid.size
    if full {
      werase(tagscope_stdscr())
      clearok(tagscope_stdscr(), true)
    }
    var text = [wchar_t](repeating: 0, count: 6)
    let width = grid.size.width
    for index in grid.changedCells(since: full ? nil : previous) {
      let cell = grid.cells[index]
      var count = 0
      for scalar in cell.glyph.unicodeScalars where count < 5 {
        text[count] = wchar_t(bitPattern: scalar.value)
        count += 1
      }
      text[count] = 0
      let (attributes, pair) = self.attributes(cell.style)
      _ = tagscope_put_cell(Int32(index / width), Int32(index % width), text, attributes, pair)
    }
    previous = grid
    wrefresh(tagscope_stdscr())
  }

  private func attributes(_ style: Style) -> (attr_t, Int16) {
    var attributes = tagscope_a_normal()
    if style.bold { attributes |= tagscope_a_bold() }
    if style.dim { attributes |= tagscope_a_dim() }
    if style.reverse { attributes |= tagscope_a_reverse() }
    if style.underline { attributes |= tagscope_a_underline() }
    guard colors else { return (attributes, 0) }
    switch style.color {
    case .normal: return (attributes, 0)
    case .gray:
      if grayPair == 0 { attributes |= tagscope_a_dim() }
      return (attributes, grayPair)
    default: return (attributes, Int16(style.color.rawValue))
    }
  }

  /// Writes a control sequence (made by Tagscope, never from a record) to the terminal after the
  /// frame: ncurses has flushed what it drew, so the two do not interleave.
  func writeControl(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBufferPointer {
        write(STDOUT_FILENO, $0.baseAddress, $0.count)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }

  /// Forces the next frame to be drawn in full (after a resize).
  func invalidate() { previous = nil }

  /// Every message waiting on the keyboard, mouse and resize queue (non-blocking).
  func pendingMessages() -> [Msg] {
    var messages: [Msg] = []
    var value: UInt32 = 0
    while true {
      let result = tagscope_get_wch(&value)
      if result == ERR { break }
      if result == tagscope_key_code_yes() {
        if let message = functionKey(Int32(bitPattern: value)) { messages.append(message) }
      } else if let key = characterKey(value) {
        messages.append(.key(key))
      }
    }
    return messages
  }

  private func characterKey(_ value: UInt32) -> Key? {
    switch value {
    case 27: return .escape
    case 9: return .tab
    case 10, 13: return .enter
    case 8, 127: return .backspace
    case 1...26: return .control(Character(Unicode.Scalar(UInt8(value) + 96)))
    case 0..<32: return nil
    default: return Unicode.Scalar(value).map { .character(Character($0)) }
    }
  }

  private func functionKey(_ code: Int32) -> Msg? {
    switch code {
    case tagscope_key_resize():
      invalidate()
      return .resize(size)
    case tagscope_key_up(): return .key(.up)
    case tagscope_key_down(): return .key(.down)
    case tagscope_key_left(): return .key(.left)
    case tagscope_key_right(): return .key(.right)
    case tagscope_key_ppage(): return .key(.pageUp)
    case tagscope_key_npage(): return .key(.pageDown)
    case tagscope_key_home(): return .key(.home)
    case tagscope_key_end(): return .key(.end)
    case tagscope_key_enter(): return .key(.enter)
    case tagscope_key_backspace(): return .key(.backspace)
    case tagscope_key_dc(): return .key(.delete)
    case tagscope_key_btab(): return .key(.backTab)
    case tagscope_key_mouse():
      var x: Int32 = 0
      var y: Int32 = 0
      var state: mmask_t = 0
      guard tagscope_get_mouse(&x, &y, &state) == OK else { return nil }
      let action: MouseEvent.Action
      if tagscope_mouse_wheel_up(state) != 0 {
        action = .wheelUp
      } else if tagscope_mouse_wheel_down(state) != 0 {
        action = .wheelDown
      } else if tagscope_mouse_button1(state) != 0 {
        action = .press
      } else {
        return nil
      }
      return .mouse(MouseEvent(action: action, column: Int(x), row: Int(y)))
    default: return nil
    }
  }

  /// Restores the terminal (cursor, echo, line mode, main screen).
  func close() {
    curs_set(1)
    endwin()
    delscreen(screen)
    if let input { fclose(input) }
  }
}
