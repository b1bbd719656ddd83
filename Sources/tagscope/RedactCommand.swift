import ArgumentParser
import Foundation
import TaggingPlan
import TagscopeRecording

/// `tagscope redact IN -o OUT`: a shareable copy of a recording, personal data replaced by salted
/// hashes.
struct RedactCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "redact",
    abstract: "Write a shareable copy of a recording with personal data replaced by salted hashes.",
    discussion: """
      Every value of every line is scanned by the privacy detectors (email, phone, adid, ip, card, \
      geo, token: tagscope help plan, pii). A match inside a string is replaced in place by \
      pii:KIND:HASH (strings stay strings); a number that is personal data (a card number, a phone \
      number under a phone key, a precise coordinate of a latitude/longitude pair) becomes the \
      string "pii:KIND:HASH". The hash is a salted SipHash of the value: the same value gives the \
      same hash within one file, so records stay comparable. The salt is random per run (copies \
      cannot be linked) unless --salt is given. Keys and every other byte are copied unchanged, \
      so every record stays loadable.

      A line that is not a JSON record (it does not start with {, or holds a value without quotes) \
      is scanned as plain text: each match is replaced by pii:KIND:HASH and the line is named on \
      standard error (FILE:LINE: not JSON, scanned as plain text), so no personal data passes \
      unnoticed because a line could not be parsed.

      -o writes a new file, or with --force replaces a regular file; the copy is written beside \
      it first and moved into place once complete. The counts replaced per kind go to standard \
      error.

      Exit status: 0 when the copy is written; 2 when the input cannot be read or the output \
      cannot be written. \(ExitStatusWords.usage)
      """)

  @Argument(help: "The recording to copy (JSON Lines).")
  var input: String

  @Option(name: .shortAndLong, help: "The redacted copy to write.")
  var output: String

  @Option(help: "The salt of the hashes (the same salt gives the same hashes across files).")
  var salt: String?

  @Flag(help: "Replace the -o file when it exists (regular files only).")
  var force = false

  func run() throws {
    guard let reader = FileHandle(forReadingAtPath: input) else {
      StandardError.write("error: \(input) cannot be read\n")
      throw ExitCode(2)
    }
    defer { try? reader.close() }
    let destination = try PartialOutput(output, replacing: force)
    let writer = destination.handle
    var redactor = Redactor(salt: salt ?? Redactor.randomSalt())
    var lines = 0
    do {
      lines = try redactor.copy(from: reader.fileDescriptor, to: writer.fileDescriptor)
      try writer.close()
    } catch {
      StandardError.write("error: \(input): \(error)\n")
      throw ExitCode(2)
    }
    try destination.commit()
    let plainText = redactor.plainTextLines
    for line in plainText.first {
      StandardError.write(
        "\(input):\(line.line): not JSON, scanned as plain text (\(line.replaced) value"
          + (line.replaced == 1 ? "" : "s") + " replaced)\n")
    }
    if plainText.count > plainText.first.count {
      StandardError.write(
        "\(input): \(plainText.count - plainText.first.count) more lines not JSON, scanned as plain text\n")
    }
    let kinds = zip(PIIKind.allCases, redactor.counts).filter { $0.1 > 0 }.map { "\($0.0.rawValue) \($0.1)" }
    StandardError.write(
      "\(input): \(lines) lines, \(redactor.total) values replaced"
        + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))") + " in \(output)\n")
  }
}
