import ArgumentParser
import Foundation
import TaggingPlan
import TagscopeRecording

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
      lines = try Self.copy(from: reader, to: writer, redactor: &redactor)
      try writer.close()
    } catch {
      StandardError.write("error: \(input): \(error)\n")
      throw ExitCode(2)
    }
    try destination.commit()
    let kinds = zip(PIIKind.allCases, redactor.counts).filter { $0.1 > 0 }.map { "\($0.0.rawValue) \($0.1)" }
    StandardError.write(
      "\(input): \(lines) lines, \(redactor.total) values replaced"
        + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))") + " in \(output)\n")
  }

  /// Copies every line of `reader` to `writer` redacted, reading and writing 4 MiB at a time
  /// through their file descriptors (one buffer each, reused); returns the number of lines (a last
  /// line without a line break is copied without one). Lines are redacted in the chunk read (found
  /// with `memchr`); only a line split between two chunks is gathered first.
  static func copy(from reader: FileHandle, to writer: FileHandle, redactor: inout Redactor) throws -> Int {
    let input = reader.fileDescriptor
    let output = writer.fileDescriptor
    var chunk = [UInt8](repeating: 0, count: 1 << 22)
    var pending: [UInt8] = []
    var out: [UInt8] = []
    out.reserveCapacity(1 << 23)
    var lines = 0
    while true {
      let count = try chunk.withUnsafeMutableBytes { try readChunk(input, into: $0) }
      guard count > 0 else { break }
      chunk.withUnsafeBufferPointer { whole in
        let bytes = UnsafeBufferPointer(rebasing: whole[..<count])
        guard let base = bytes.baseAddress else { return }
        var start = 0
        while start < bytes.count, let found = memchr(base + start, 0x0A, bytes.count - start) {
          let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
          let line = UnsafeBufferPointer(rebasing: bytes[start..<newline])
          if pending.isEmpty {
            redactor.redact(line: line, into: &out)
          } else {
            pending.append(contentsOf: line)
            pending.withUnsafeBufferPointer { _ = redactor.redact(line: $0, into: &out) }
            pending.removeAll(keepingCapacity: true)
          }
          out.append(0x0A)
          lines += 1
          start = newline + 1
        }
        pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
      }
      if out.count >= 1 << 22 {
        try writeAll(out, to: output)
        out.removeAll(keepingCapacity: true)
      }
    }
    if !pending.isEmpty {
      pending.withUnsafeBufferPointer { _ = redactor.redact(line: $0, into: &out) }
      lines += 1
    }
    try writeAll(out, to: output)
    return lines
  }

  /// Reads up to `buffer.count` bytes from `descriptor` (0 at the end of the file).
  private static func readChunk(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
  {
    while true {
      let count = read(descriptor, buffer.baseAddress, buffer.count)
      if count >= 0 { return count }
      guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
  }

  /// Writes all of `bytes` to `descriptor`.
  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws {
    try bytes.withUnsafeBytes { raw in
      var written = 0
      while written < raw.count {
        let count = write(descriptor, raw.baseAddress! + written, raw.count - written)
        if count < 0 {
          guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
          continue
        }
        written += count
      }
    }
  }
}
