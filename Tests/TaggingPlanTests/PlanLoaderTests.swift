import AnalyticsHub
import TagscopeFuzzing
import XCTest

@testable import TaggingPlan

final class PlanLoaderTests: XCTestCase {
  func testLoadsTheSamplePlanWithLocations() throws {
    let plan = try samplePlan()
    XCTAssertEqual(plan.title, "Podcasts v3")
    XCTAssertEqual(plan.entries.count, 7)
    let play = try XCTUnwrap(plan.entry(section: .actions, name: "playPodcast"))
    XCTAssertEqual(play.location, SourceLocation(line: 12, column: 3))
    XCTAssertEqual(play.screens, ["podcasts", "favorites"])
    XCTAssertEqual(play.properties?.map(\.name), ["podcast_title", "podcast_duration", "podcast_id"])
    XCTAssertEqual(play.properties?[0].required, true)
    XCTAssertEqual(play.properties?[0].maxLength, 20)
    XCTAssertEqual(play.properties?[1].types, [.integer])
    XCTAssertEqual(play.properties?[1].minimum, 0)
    XCTAssertEqual(play.providers.map(\.provider), ["firebase", "amplitude", "piano"])
    let firebase = play.providers[0].calls
    XCTAssertEqual(firebase.map(\.location.line), [20, 21])
    XCTAssertEqual(firebase[1].condition?.screens, ["favorites"])
    XCTAssertEqual(firebase[1].name, "play_podcast_from_favorites")
    XCTAssertEqual(firebase[1].params.map(\.name), ["podcast_title", "podcast_duration"])
    XCTAssertTrue(play.providers[2].calls[0].isNone)
    let fail = try XCTUnwrap(plan.entry(section: .events, name: "playerDidFail"))
    XCTAssertEqual(fail.severity, .warning)
    XCTAssertEqual(fail.properties?[0].allowed, ["network", "decoding"])
    let screen = try XCTUnwrap(plan.entry(section: .screens, name: "podcasts"))
    XCTAssertEqual(screen.providers[0].calls[0].params[0].expectation, .value("show_podcasts"))
    let listening = try XCTUnwrap(plan.entry(section: .timed, name: "listening"))
    XCTAssertEqual(listening.providers[0].calls[0].condition?.phase, .stop)
  }

  /// Asserts that `yaml` fails to load with exactly `location` and a message containing `fragment`.
  private func assertFails(
    _ yaml: String, at location: SourceLocation, _ fragment: String, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    XCTAssertThrowsError(try PlanLoader.load(yaml: yaml, file: "bad.yaml"), file: file, line: line) { error in
      guard let error = error as? PlanLoadError else {
        return XCTFail("not a PlanLoadError: \(error)", file: file, line: line)
      }
      XCTAssertEqual(error.file, "bad.yaml", file: file, line: line)
      XCTAssertEqual(error.location, location, "\(error)", file: file, line: line)
      XCTAssertTrue(error.message.contains(fragment), "\(error)", file: file, line: line)
      XCTAssertTrue(
        error.description.hasPrefix("bad.yaml:\(location.line):\(location.column): "), file: file, line: line)
    }
  }

  func testYAMLSyntaxError() {
    assertFails("plan: P\nactions:\n  play: {name: [\n", at: SourceLocation(line: 4, column: 1), "YAML error")
    assertFails(
      "plan: P\nactions:\n  play:\n    - a\n   b: c\n", at: SourceLocation(line: 5, column: 4), "YAML error")
  }

  /// `plan: P`, then `levels` keys, each a sequence of ten aliases of the one before (ten
  /// scalars at the first): ten to the `levels` nodes once expanded.
  static func aliasBomb(levels: Int) -> String {
    var lines = ["plan: P", "x0: &a0 [\(Array(repeating: "x", count: 10).joined(separator: ", "))]"]
    for level in 1..<levels {
      let aliases = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
      lines.append("x\(level): &a\(level) [\(aliases)]")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `check` (what `plan import` runs on the plan it writes) throws exactly what `load` throws,
  /// for a bad entry anywhere in a catalogue, and passes what `load` loads.
  func testCheckThrowsWhatLoadThrows() throws {
    let good = """
      plan: P
      catalogues:
        segment:
          calls:
            A: {params: {x: {type: string}}}
            B: {method: track}
      """
    XCTAssertNoThrow(try PlanLoader.check(yaml: good, file: "p.yaml"))
    XCTAssertEqual(try PlanLoader.load(yaml: good, file: "p.yaml").catalogues.first?.entries.count, 2)
    for bad in [
      good + "\n      C: {params: {x: {type: strin}}}\n", good + "\n      A: {}\n",
      good.replacingOccurrences(of: "method: track", with: "method: [track]"),
    ] {
      var loadError = ""
      var checkError = ""
      XCTAssertThrowsError(try PlanLoader.load(yaml: bad, file: "p.yaml")) { loadError = "\($0)" }
      XCTAssertThrowsError(try PlanLoader.check(yaml: bad, file: "p.yaml")) { checkError = "\($0)" }
      XCTAssertEqual(checkError, loadError)
      XCTAssertTrue(loadError.hasPrefix("p.yaml:"), loadError)
    }
  }

  /// The walk bounding aliases runs when the document follows an alias, and is skipped when none
  /// does (an anchor alone shares nothing; every `&` of text is text).
  func testOnlyADocumentWithAnAliasIsWalkedForAliases() throws {
    for text in ["a: &x 1\nb: *x", "{a: [&x 1, *x]}", Self.aliasBomb(levels: 3)] {
      XCTAssertEqual(try YAMLTree.compose(text)?.hasAliases, true, text)
    }
    for text in ["description: R&D, rock & roll, and a &", "plan: P", "é&x", "- &x\n  - 1", "a: \"*x\""] {
      XCTAssertEqual(try YAMLTree.compose(text)?.hasAliases, false, text)
    }
  }

  func testAnAliasBombFailsAtTheFirstSequenceThatExpandsPastTheBudget() {
    // 400 bytes: a budget of 10 000 nodes. Levels 0-2 expand to 1 239 nodes; level 3's aliases
    // (`&a3 [`, line 5) go past the budget, long before the ten million nodes of level 6.
    assertFails(Self.aliasBomb(levels: 7), at: SourceLocation(line: 5, column: 5), "YAML aliases expand")
  }

  func testAliasesSharingADefinitionLoad() throws {
    let yaml = """
      plan: P
      actions:
        play:
          properties: &common {title: {type: string}, id: {type: string}}
        pause:
          properties: *common
      """
    let plan = try PlanLoader.load(yaml: yaml, file: "shared.yaml")
    XCTAssertEqual(plan.name, "P")
  }

  func testUnknownKeys() {
    assertFails(
      "plan: P\nscreenz: {}\n", at: SourceLocation(line: 2, column: 1), "unknown key 'screenz' in the plan")
    assertFails(
      "plan: P\nactions:\n  play:\n    properties:\n      title: {type: string, maxlen: 3}\n",
      at: SourceLocation(line: 5, column: 29), "unknown key 'maxlen' in property title of action play")
    assertFails(
      "plan: P\nscreens:\n  home:\n    screens: [home]\n", at: SourceLocation(line: 4, column: 5),
      "unknown key 'screens' in screen home")
    assertFails(
      "plan: P\nactions:\n  play:\n    providers:\n      firebase: {nme: x}\n",
      at: SourceLocation(line: 5, column: 18), "unknown key 'nme'")
  }

  func testWrongConstraintTypes() {
    assertFails(
      "plan: P\nactions:\n  play:\n    properties:\n      title:\n        maxLength: ten\n",
      at: SourceLocation(line: 6, column: 20),
      "maxLength of property title of action play must be a non-negative integer")
    assertFails(
      "plan: P\nactions:\n  play:\n    properties:\n      title: {type: strnig}\n",
      at: SourceLocation(line: 5, column: 21), "type of property title of action play must be one of")
    assertFails(
      "plan: P\nactions:\n  play:\n    properties:\n      title: {required: yes please}\n",
      at: SourceLocation(line: 5, column: 25), "must be true or false")
    assertFails(
      "plan: P\nactions:\n  play:\n    properties:\n      n: {minimum: \"3\"}\n",
      at: SourceLocation(line: 5, column: 20), "minimum of property n of action play must be a number")
    assertFails(
      "plan: P\nactions:\n  play:\n    severity: fatal\n", at: SourceLocation(line: 4, column: 15),
      "severity of action play must be error or warning")
    assertFails(
      "plan: P\nactions:\n  play:\n    providers:\n      piano: nothing\n",
      at: SourceLocation(line: 5, column: 14),
      "provider piano of action play must be a call")
    assertFails(
      "plan: P\nactions:\n  play:\n    properties: [a, b]\n", at: SourceLocation(line: 4, column: 17),
      "properties of action play must be a mapping")
  }

  func testDuplicateEntryAndKeyPointAtTheSecondOccurrence() {
    assertFails(
      "plan: P\nactions:\n  play: {}\n  pause: {}\n  play: {}\n", at: SourceLocation(line: 5, column: 3),
      "duplicate key 'play' (first at line 3, column 3)")
    assertFails(
      "plan: P\nactions:\n  play:\n    properties: {a: {type: string}, a: {type: integer}}\n",
      at: SourceLocation(line: 4, column: 37), "duplicate key 'a'")
  }

  func testInvalidPattern() {
    assertFails(
      "plan: P\nactions:\n  play:\n    properties:\n      id: {pattern: \"p[0-9\"}\n",
      at: SourceLocation(line: 5, column: 21),
      "pattern of property id of action play is not a valid regular expression")
    // Constructs no linear-time matcher offers are a plan problem at their line, never a silent
    // "no match".
    assertFails(
      "plan: P\nactions:\n  play:\n    properties:\n      id: {pattern: \"(a)\\\\1\"}\n",
      at: SourceLocation(line: 5, column: 21), "backreferences are not supported")
    assertFails(
      "plan: P\nactions:\n  play:\n    properties:\n      id: {pattern: \"^(?!x)\"}\n",
      at: SourceLocation(line: 5, column: 21), "lookahead and lookbehind are not supported")
  }

  func testStructuralMistakes() {
    assertFails("", at: SourceLocation(line: 1, column: 1), "the plan is empty")
    assertFails("screens: {}\n", at: SourceLocation(line: 1, column: 1), "no 'plan' key")
    assertFails("- a\n- b\n", at: SourceLocation(line: 1, column: 1), "the plan must be a mapping")
    assertFails(
      "plan: P\nscreens:\n  home: {}\nactions:\n  play: {screens: [hom]}\n",
      at: SourceLocation(line: 5, column: 10),
      "names 'hom', which is not a planned screen")
    assertFails(
      "plan: P\nactions:\n  play:\n    providers:\n      firebase: {when: {phase: stop}, name: x}\n",
      at: SourceLocation(line: 5, column: 25),
      "phase in provider firebase of action play only applies to timed events")
    assertFails(
      "plan: P\nactions:\n  play:\n    providers:\n      firebase: {params: [a]}\n",
      at: SourceLocation(line: 5, column: 17), "needs a name")
  }

  func testUnreadableFileIsAnError() {
    XCTAssertThrowsError(try PlanLoader.load(contentsOf: "/nonexistent/plan.yaml")) { error in
      XCTAssertEqual((error as? PlanLoadError)?.location, SourceLocation(line: 1, column: 1))
      XCTAssertTrue("\(error)".hasPrefix("/nonexistent/plan.yaml:1:1: cannot read the plan"))
    }
  }

  func testMutatedPlansNeverCrashAndErrorsPointInsideTheFile() {
    var generator = SeededGenerator(seed: 0x7461_6773)
    let source = Array(samplePlanYAML.unicodeScalars)
    let lineCount = samplePlanYAML.split(separator: "\n", omittingEmptySubsequences: false).count
    let replacements: [Unicode.Scalar] = [
      ":", "-", "{", "}", "[", "]", " ", "\n", "\"", "x", "1", "&", "*", "#", "\t",
    ]
    var failures = 0
    for _ in 0..<400 {
      var mutated = source
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        let index = Int.random(in: 0..<mutated.count, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: mutated.remove(at: index)
        case 1: mutated.insert(replacements.randomElement(using: &generator)!, at: index)
        default: mutated[index] = replacements.randomElement(using: &generator)!
        }
      }
      var text = ""
      text.unicodeScalars.append(contentsOf: mutated)
      do {
        _ = try PlanLoader.load(yaml: text, file: "fuzz.yaml")
      } catch let error as PlanLoadError {
        failures += 1
        XCTAssertGreaterThanOrEqual(error.location.line, 1, "\(error)")
        XCTAssertLessThanOrEqual(error.location.line, lineCount + 4, "\(error)")
        XCTAssertGreaterThanOrEqual(error.location.column, 1, "\(error)")
      } catch {
        XCTFail("not a PlanLoadError: \(error)")
      }
    }
    XCTAssertGreaterThan(failures, 0)
  }

  /// A plan from a pipe (`--plan <(tagscope demo --print-plan)`) is read as a stream; a directory
  /// or a missing file is a clear error naming it.
  func testAPlanIsReadFromAPipeAndBadPathsSayWhy() throws {
    let pipe = Pipe()
    let yaml = "plan: Piped\nversion: 2\nscreens:\n  home: {}\n"
    let writer = Thread {
      pipe.fileHandleForWriting.write(Data(yaml.utf8))
      try? pipe.fileHandleForWriting.close()
    }
    writer.start()
    let plan = try PlanLoader.load(contentsOf: "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)")
    XCTAssertEqual(plan.title, "Piped v2")
    XCTAssertThrowsError(try PlanLoader.load(contentsOf: NSTemporaryDirectory())) { error in
      XCTAssertTrue("\(error)".hasSuffix("cannot read the plan: a directory"), "\(error)")
    }
    XCTAssertThrowsError(try PlanLoader.load(contentsOf: "/no/such/plan.yaml")) { error in
      XCTAssertEqual("\(error)", "/no/such/plan.yaml:1:1: cannot read the plan: no such file")
    }
  }
}
