import TagscopeUI
import XCTest

/// The debugger's key table (``DebuggerReference/keys``, drawn by `?` and printed by `tagscope help
/// keys`) names every key that does something: each printable key is pressed on a session, and one
/// that changes the screen, asks for work or quits must be in the table.
final class KeyReferenceTests: XCTestCase {
  /// The keys a row of the table names: its words, `1-4` standing for each digit, `space` for " ".
  static func documentedKeys() -> Set<String> {
    var keys: Set<String> = []
    for row in DebuggerReference.keys {
      for word in row.key.split(separator: " ").map(String.init) {
        if word == "space" {
          keys.insert(" ")
        } else if word.count == 3, word.dropFirst().first == "-", let low = word.first?.wholeNumberValue,
          let high = word.last?.wholeNumberValue
        {
          for digit in low...high { keys.insert(String(digit)) }
        } else {
          keys.insert(word)
        }
      }
    }
    return keys
  }

  func testEveryPrintableKeyThatDoesSomethingIsInTheTable() {
    let documented = Self.documentedKeys()
    var session = Fixtures.state(mode: .replay)
    session.type("...")  // a record in the middle, so moving either way shows
    let before = render(session).text
    var undocumented: [String] = []
    var acting = 0
    for scalar in (0x21...0x7E).compactMap(Unicode.Scalar.init) + [" "] {
      let key = Character(scalar)
      let (after, effects) = update(session.state, .key(.character(key)))
      let acts = after.shouldQuit || !effects.isEmpty || render(after).text != before
      guard acts else { continue }
      acting += 1
      if !documented.contains(String(key)) { undocumented.append(String(key)) }
    }
    XCTAssertGreaterThan(acting, 20, "the keys were pressed on a session that reacts")
    XCTAssertEqual(undocumented, [], "keys that act but are not in DebuggerReference.keys")
  }

  func testTheHelpBoxDrawsTheTable() {
    var session = Fixtures.state(mode: .replay, size: Size(width: 200, height: 60))
    session.type("?")
    let screen = render(session).text
    for row in DebuggerReference.keys.prefix(20) {
      XCTAssertTrue(screen.contains(row.key), row.key)
    }
  }
}
