import ArgumentParser
import Foundation
import TaggingPlan
import TagscopeRecording
import TagscopeServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `tagscope export --har OUT.har RECORDING`: a recording in a format other tools open.
struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write a recording in a format other tools open (a HAR capture, an HTML session).",
    discussion: """
      --har writes the recording's wire records (those listen, the proxy or import-capture made of \
      an SDK's requests) as a HAR 1.2 capture that browsers' devtools, mitmproxy and import-capture \
      open: one request per SDK request (the records of one request gathered back into it), at its \
      time, with the vendor's answer (response_status). A \
      recording keeps the SDK's messages and credential, not the request: each request is rebuilt \
      at the vendor's own host and event path with a body its decoder reads back into the same \
      record, and its comment says so. Requests are rebuilt for \
      \(HARExport.providers.joined(separator: ", ")); records of other vendors and in-app \
      dispatches are counted and listed on standard error with the reason, never dropped silently. \
      No secret is written: mParticle's Events API requests carry the API key as Basic auth user \
      with an empty secret (a recording never keeps the secret). A binary body (a Firebase \
      upload's gzip'd protobuf) is written base64 with "encoding": "base64" in its postData, which \
      HAR 1.2 defines only for responses: import-capture reads it back; mitmproxy's HAR reader \
      shows it as base64 text. Not rebuilt, with the reason: a \
      record that kept fields its decoder did not read (a Firebase upload's unknown fields), a \
      Firebase debug log line's record (it had no request), and the records after one not rebuilt \
      in the same request (their places would shift).

      --html writes the session as one self-contained HTML page anyone can open (no network \
      access): the event stream with its marks, a filter, the screens and session as of the selected \
      record, each provider's calls side by side with their violations and expected vs got, with the \
      debugger's keys (j/k, g/G, PgUp/PgDn, / filter, [ ] violations). With --plan the records are \
      checked against the plan; without, the providers' own rule violations are marked. Bad lines \
      are listed in the page and on standard error, with their line number.

      --redact replaces personal data by salted hashes as tagscope redact does (email, phone, \
      adid, ip, card, geo, token: tagscope help plan, pii), with a random salt, so the export can \
      be shared: in every record the HAR is made of, and in every text of the HTML session.

      The file is written beside its place first and moved there once complete; an existing file \
      is replaced only with --force (regular files only).

      Exit status: 0 when every wire record was exported; 1 when some wire record was not (the \
      others are in the file); 2 when the recording cannot be read or the output cannot be \
      written. \(ExitStatusWords.usage)
      """)

  @Option(name: .customLong("har"), help: "Write the wire records as a HAR 1.2 capture to this file.")
  var har: String?

  @Option(name: .customLong("html"), help: "Write the session as one self-contained HTML page to this file.")
  var html: String?

  @Option(help: "With --html: the tagging plan (YAML) the records are checked against.")
  var plan: String?

  @Argument(help: "The recording (JSON Lines); - reads standard input.")
  var recording: String

  @Flag(help: "Replace the output file when it exists (regular files only).")
  var force = false

  @Flag(help: "Replace personal data by salted hashes (as tagscope redact does).")
  var redact = false

  func validate() throws {
    guard (har == nil) != (html == nil) else {
      throw ValidationError("give one of --har FILE and --html FILE")
    }
    if plan != nil && html == nil { throw ValidationError("--plan goes with --html") }
  }

  func run() throws {
    if let html {
      return StandardError.write(
        try SessionExport.write(
          recording, plan: plan, to: html, replacing: force,
          redactingWith: redact ? Redactor.randomSalt() : nil))
    }
    var redactor = redact ? Redactor(salt: Redactor.randomSalt()) : nil
    let account = try Self.exportHAR(recording, to: har ?? "", replacing: force, redactor: &redactor)
    StandardError.write(account.text)
    if account.incomplete { throw ExitCode(1) }
  }

  /// What an export did, said on standard error; `incomplete` when some wire record is not in it.
  struct Account {
    var text: String
    var incomplete: Bool
  }

  /// Writes `recording`'s wire records to the HAR file `output` (beside it first, then moved into
  /// place), each redacted first with `redactor`; exits with 2 when the recording cannot be read or
  /// `output` cannot be written.
  static func exportHAR(
    _ recording: String, to output: String, replacing: Bool, redactor: inout Redactor?
  ) throws -> Account {
    let destination = try PartialOutput(output, replacing: replacing)
    let file = destination.handle
    var export = HARExport(creatorVersion: Tagscope.version)
    var exported = 0
    var requests = 0
    var inApp = 0
    var skipped: [(provider: String, reason: String, count: Int, firstSeq: UInt64)] = []
    var pending = Array(export.head.utf8)
    func take(_ outcomes: [HARExport.Outcome], seq: UInt64) {
      for outcome in outcomes {
        switch outcome {
        case .entry(let json):
          if requests > 0 { pending.append(UInt8(ascii: ",")) }
          pending += json.utf8
          requests += 1
          exported += 1
        case .sameRequest: exported += 1
        case .inApp: inApp += 1
        case .notRebuilt(let provider, let reason):
          if let place = skipped.firstIndex(where: { $0.provider == provider && $0.reason == reason }) {
            skipped[place].count += 1
          } else {
            skipped.append((provider, reason, 1, seq))
          }
        }
      }
    }
    var problems: [String] = []
    do {
      let reader = try RecordingReader(path: recording)
      while let entry = try reader.next() {
        switch entry {
        case .record(let read, _):
          var record = read
          if var active = redactor {
            defer { redactor = active }
            guard let redacted = active.redact(record: read) else {
              problems.append("seq \(read.seq): its redacted line does not read back")
              continue
            }
            record = redacted
          }
          take(export.outcomes(record), seq: record.seq)
        case .dropped: break
        case .problem(let problem): problems.append(problem.description)
        }
        if pending.count >= 1 << 20 {
          try file.write(contentsOf: pending)
          pending.removeAll(keepingCapacity: true)
        }
      }
      take(export.finish(), seq: 0)
      pending += export.tail.utf8
      try file.write(contentsOf: pending)
      try file.close()
    } catch {
      StandardError.write("error: \(error)\n")
      throw ExitCode(2)
    }
    try destination.commit()
    var text =
      "\(recording): \(exported) wire record\(exported == 1 ? "" : "s") exported as \(requests) request\(requests == 1 ? "" : "s") to \(output)\n"
    if inApp > 0 { text += "\(inApp) in-app record\(inApp == 1 ? "" : "s") not exported (no request)\n" }
    for skip in skipped {
      text +=
        "\(skip.count) \(skip.provider) record\(skip.count == 1 ? "" : "s") not exported from seq \(skip.firstSeq): \(skip.reason)\n"
    }
    for problem in problems { text += "\(problem) (skipped)\n" }
    return Account(text: text, incomplete: !skipped.isEmpty || !problems.isEmpty)
  }
}
