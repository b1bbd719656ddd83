import Foundation

/// The terminal's clipboard, through OSC 52 (`ESC ] 52 ; c ; base64 BEL`): xterm, iTerm2, kitty,
/// WezTerm, Windows Terminal, and tmux with `set-clipboard on` take it, over ssh too. The text is
/// sent base64-encoded, so nothing in it reaches the terminal as a control sequence.
public enum Clipboard {
  /// Bytes of text sent at most (terminals cap OSC 52; xterm at about 100 kB of base64).
  public static let limit = 74_000

  /// The OSC 52 sequence putting `text` on the clipboard.
  public static func sequence(for text: String) -> [UInt8] {
    Array("\u{1B}]52;c;".utf8) + Array(Data(text.utf8).base64EncodedString().utf8) + [0x07]
  }
}
