/// Plans whose text tries to become code in what `plan codegen` writes: every kind of line break,
/// NUL, bidi and zero-width controls, each followed by a statement, in every place plan text
/// reaches generated source (plan name, version and description, tag names, property keys and
/// descriptions, patterns, enum values and object enum keys, provider calls and parameters,
/// catalogue calls and parameters), and the keywords that cannot be argument labels unescaped.
enum InjectionPlans {
  /// The scalars that end a `//` comment in some reader (Swift's lexer, editors, swift-format)
  /// or make source read differently from what compiles.
  static let separators: [Unicode.Scalar] = [
    "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "\u{00}", "\u{1B}", "\u{202E}",
    "\u{2066}", "\u{200B}", "\u{FEFF}", "\u{7F}", "\t",
  ]

  /// The statement the plan's text tries to inject.
  static let statement = "fatalError(\"injected\")"

  /// `x<separator>fatalError("injected")`, the separator picked by `index`.
  static func payload(_ index: Int, prefix: String = "x") -> String {
    prefix + String(Character(separators[index % separators.count])) + statement
  }

  /// One plan with a payload in every place, each place with its own separator.
  static var everywhere: String {
    var next = 0
    func text(_ prefix: String = "x") -> String {
      defer { next += 1 }
      return quoted(payload(next, prefix: prefix))
    }
    return """
      plan: \(text("Plan"))
      version: \(text("1"))
      customProviders: [custom]
      description: \(text("about"))
      screens:
        \(text("home")): {description: \(text("screen"))}
        plain: {}
      actions:
        \(text("tap")):
          description: \(text("action"))
          properties:
            \(text("title")): {type: string, required: true, description: \(text("d")), pattern: \(text("^a"))}
            \(text("kind")): {type: string, enum: [\(text("a")), \(text("b"))], required: true}
            \(text("blob")): {type: object, enum: [{\(text("k")): 1}]}
            \(text("count")): {type: integer, minimum: 0}
          providers:
            custom: {method: \(text("do")), name: \(text("call")), params: [\(text("count"))]}
            amplitude: {name: \(text("Tap")), params: {\(text("extra")): {type: string, description: \(text("e"))}}}
      events:
        inout:
          properties:
            inout: {type: string, required: true}
            let: {type: integer, required: true}
            var: {type: boolean}
          providers:
            amplitude: {name: inout, params: [inout, let, var]}
        let: {properties: {let: {type: string}}}
        var: {}
      states:
        \(text("mode")): {properties: {value: {type: string, required: true, description: \(text("v"))}}}
      timed:
        \(text("wait")): {}
      catalogues:
        segment:
          calls:
            \(text("Shared")):
              method: track
              description: \(text("c"))
              params:
                \(text("link")): {type: string, required: true, description: \(text("p"))}
          methods:
            identify: {params: {\(text("trait")): {type: string}}}

      """
  }

  /// `text` as a YAML double-quoted scalar: printable ASCII kept, everything else `\u`-escaped.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case " "..."~": out.unicodeScalars.append(scalar)
      default:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out +=
          scalar.value > 0xFFFF
          ? "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
          : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      }
    }
    return out + "\""
  }
}

/// The code of a generated Swift file: its comments and string literals left out, so what remains
/// is what compiles. Enough of Swift's lexer for generated text (line and block comments, single-line
/// string literals with escapes); a multi-line or raw literal would show up as code.
enum GeneratedCode {
  static func codeOnly(_ source: String) -> String {
    var code = ""
    var scalars = source.unicodeScalars.makeIterator()
    var pending: Unicode.Scalar? = nil
    func next() -> Unicode.Scalar? {
      if let scalar = pending {
        pending = nil
        return scalar
      }
      return scalars.next()
    }
    while let scalar = next() {
      switch scalar {
      case "/":
        guard let following = next() else {
          code.unicodeScalars.append(scalar)
          break
        }
        if following == "/" {
          while let skipped = next(), skipped != "\n" {}
          code += "\n"
        } else if following == "*" {
          var previous: Unicode.Scalar = " "
          while let skipped = next(), !(previous == "*" && skipped == "/") { previous = skipped }
        } else {
          code.unicodeScalars.append(scalar)
          pending = following
        }
      case "\"":
        code += "\"\""
        while let inside = next(), inside != "\"" {
          if inside == "\\" { _ = next() }
        }
      default:
        code.unicodeScalars.append(scalar)
      }
    }
    return code
  }
}
