import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeUI

/// `y` copies the selected record's JSON to the terminal's clipboard: the event loop writes it as
/// one OSC 52 sequence after the frame, base64-encoded so no byte of the record reaches the
/// terminal as a control.
final class ClipboardCopyTests: XCTestCase {
  func testYPutsTheSelectedRecordsJSONOnTheClipboardOnce() throws {
    var state = Fixtures.state()
    state.type("j")
    let record = try XCTUnwrap(state.state.selection?.record)
    state.type("y")
    let json = try XCTUnwrap(state.state.clipboard)
    XCTAssertEqual(json, RecordLineEncoder.line(record))
    XCTAssertTrue(render(state).text.contains("copied record #\(record.seq)"), render(state).text)
    state.apply(.clipboardWritten)
    XCTAssertNil(state.state.clipboard, "written once")
  }

  func testTheSequenceIsBase64SoNothingInTheRecordDrivesTheTerminal() throws {
    let hostile = "name\u{1B}]0;owned\u{07}\u{9B}2J"
    let sequence = Clipboard.sequence(for: hostile)
    XCTAssertEqual(Array(sequence.prefix(7)), Array("\u{1B}]52;c;".utf8))
    XCTAssertEqual(sequence.last, 0x07)
    let payload = sequence.dropFirst(7).dropLast()
    XCTAssertTrue(payload.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "printable base64 only")
    let decoded = try XCTUnwrap(Data(base64Encoded: Data(payload)))
    XCTAssertEqual(String(decoding: decoded, as: UTF8.self), hostile)
  }

  func testARecordTooLongForATerminalIsNotSent() {
    var state = Fixtures.state()
    state.apply(.copyReady(seq: 9, json: String(repeating: "x", count: Clipboard.limit + 1)))
    XCTAssertNil(state.state.clipboard)
    XCTAssertTrue(render(state).text.contains("export it with e"), render(state).text)
  }

  /// The route is read from where the debugger runs: tmux (and its set-clipboard), GNU screen,
  /// a console without a clipboard, or a terminal.
  func testTheRouteFollowsTmuxScreenAndTheTerminal() {
    let tmux = ["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color"]
    XCTAssertEqual(
      ClipboardRoute.detect(environment: tmux, tmuxSetClipboard: "external\n"),
      .tmuxBuffer(setting: "external"))
    XCTAssertEqual(
      ClipboardRoute.detect(environment: tmux, tmuxSetClipboard: "off\n"), .tmuxBuffer(setting: "off"))
    XCTAssertEqual(
      ClipboardRoute.detect(environment: tmux, tmuxSetClipboard: nil), .tmuxBuffer(setting: "external"),
      "tmux's default")
    XCTAssertEqual(ClipboardRoute.detect(environment: tmux, tmuxSetClipboard: "on\n"), .tmuxPassing)
    XCTAssertEqual(
      ClipboardRoute.detect(environment: ["STY": "123.pts-0.host", "TERM": "screen"], tmuxSetClipboard: nil),
      .none(why: "GNU screen passes no copy to the clipboard"))
    XCTAssertEqual(
      ClipboardRoute.detect(environment: ["TERM": "linux"], tmuxSetClipboard: nil),
      .none(why: "the linux terminal has no clipboard"))
    XCTAssertEqual(
      ClipboardRoute.detect(environment: ["TERM": "xterm-256color"], tmuxSetClipboard: nil), .terminal)
    XCTAssertEqual(
      ClipboardRoute.detect(environment: ["TMUX": "", "TERM": "xterm"], tmuxSetClipboard: nil), .terminal)
  }

  /// Inside tmux with its default `set-clipboard external`, OSC 52 never reaches the clipboard:
  /// `y` puts the record into tmux's paste buffer and says so, not "copied to the clipboard".
  func testInsideTmuxWithSetClipboardExternalTheCopyGoesToTmuxsBufferAndSaysSo() throws {
    var state = Fixtures.state().state
    let effects = state.apply(
      .copyReady(seq: 3, json: "{\"seq\":3}", route: .tmuxBuffer(setting: "external")))
    XCTAssertEqual(effects, [.copyToTmuxBuffer(seq: 3, json: "{\"seq\":3}", setting: "external")])
    XCTAssertNil(state.clipboard, "no OSC 52: tmux would drop it")
    XCTAssertFalse(render(state).text.contains("to the clipboard"), render(state).text)
    _ = state.apply(.tmuxBufferLoaded(seq: 3, bytes: 10, setting: "external", error: nil))
    let said = render(state).text
    XCTAssertTrue(said.contains("copied record #3 (10 bytes) to tmux's paste buffer (prefix ] pastes)"), said)
    XCTAssertTrue(said.contains("set-clipboard external"), said)
    _ = state.apply(.tmuxBufferLoaded(seq: 3, bytes: 10, setting: "off", error: "no server running"))
    XCTAssertTrue(render(state).text.contains("not copied"), render(state).text)
    XCTAssertTrue(render(state).text.contains("e writes record #3 to a file"), render(state).text)
  }

  /// The runner asks for the route at each copy (tmux's setting may change while the debugger runs).
  func testTheRunnerAsksWhereTheCopyGoesAtEachCopy() throws {
    let store = Fixtures.store()
    let runner = EffectRunner(source: store.source, clipboardRoute: { .tmuxBuffer(setting: "off") })
    guard case .copyReady(_, _, let route) = try XCTUnwrap(runner.run(.copyRecord(0)).first) else {
      return XCTFail("not a copy")
    }
    XCTAssertEqual(route, .tmuxBuffer(setting: "off"))
  }

  func testTmuxPassingAndScreenSayWhereTheCopyWent() throws {
    var passing = Fixtures.state().state
    XCTAssertEqual(passing.apply(.copyReady(seq: 3, json: "{}", route: .tmuxPassing)), [])
    XCTAssertEqual(passing.clipboard, "{}")
    XCTAssertTrue(
      render(passing).text.contains("to the clipboard through tmux (set-clipboard on)"), render(passing).text)

    var screen = Fixtures.state().state
    let why = "GNU screen passes no copy to the clipboard"
    XCTAssertEqual(screen.apply(.copyReady(seq: 3, json: "{}", route: .none(why: why))), [])
    XCTAssertNil(screen.clipboard)
    XCTAssertTrue(
      render(screen).text.contains("not copied (\(why)): e writes record #3 to a file"), render(screen).text)
  }
}
