/// Editing keys shared by the text inputs (filter, jump, export file name).
enum TextInput {
  /// `text` after `key`: backspace and delete remove a character, Ctrl-U everything, Ctrl-W the
  /// last word (and the spaces after it); other keys leave it.
  static func edit(_ text: String, _ key: Key) -> String {
    switch key {
    case .backspace, .delete: return String(text.dropLast())
    case .control("u"): return ""
    case .control("w"):
      var edited = text
      while edited.last == " " { edited.removeLast() }
      while let last = edited.last, last != " " { edited.removeLast() }
      return edited
    default: return text
    }
  }
}
