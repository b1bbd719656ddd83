extension State {
  /// `y`'s record JSON, ready: where it goes follows `route`, and the notice says where it went:
  /// the clipboard (OSC 52, straight or through tmux), tmux's paste buffer, or nowhere, with `e`
  /// offered to write it to a file.
  mutating func copyReady(seq: UInt64, json: String, route: ClipboardRoute) -> [Effect] {
    let bytes = json.utf8.count
    let size = "\(Format.grouped(bytes)) bytes of JSON"
    switch route {
    case .terminal, .tmuxPassing:
      guard bytes <= Clipboard.limit else {
        notice = Sanitizer.clean(
          "record #\(seq) is \(size), over what a terminal's clipboard takes "
            + "(\(Format.grouped(Clipboard.limit))): export it with e")
        return []
      }
      clipboard = json
      let through = route == .tmuxPassing ? " through tmux (set-clipboard on)" : ""
      notice = Sanitizer.clean("copied record #\(seq) (\(size)) to the clipboard\(through)")
      return []
    case .tmuxBuffer(let setting):
      return [.copyToTmuxBuffer(seq: seq, json: json, setting: setting)]
    case .none(let why):
      notice = Sanitizer.clean("not copied (\(why)): e writes record #\(seq) to a file")
      return []
    }
  }

  /// tmux's answer to ``Effect/copyToTmuxBuffer(seq:json:setting:)``: the copy is in its paste
  /// buffer, not the clipboard, and the notice says so and how to change it.
  mutating func tmuxBufferLoaded(seq: UInt64, bytes: Int, setting: String, error: String?) {
    if let error {
      notice = Sanitizer.clean(
        "not copied: e writes record #\(seq) to a file (tmux's set-clipboard \(setting) keeps y from the "
          + "clipboard; its paste buffer refused it: \(error))", limit: 300)
      return
    }
    notice = Sanitizer.clean(
      "copied record #\(seq) (\(Format.grouped(bytes)) bytes) to tmux's paste buffer (prefix ] pastes): "
        + "tmux's set-clipboard \(setting) keeps y from the clipboard; set -g set-clipboard on lets it",
      limit: 300)
  }
}
