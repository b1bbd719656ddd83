import Foundation
import TagscopeRecording

extension Timeline {
  /// Writes the records at `positions` (timeline order, each once) to a new recording at `path`:
  /// this recording's header, then each record's line exactly as stored, so `replay` and
  /// `validate` read the export as they read this recording. Never overwrites a file: an existing
  /// `path` is an error. Returns how many records were written.
  /// With `transform`, each line (the header's too, without its line break) is appended by it
  /// instead (a redacted export).
  @discardableResult
  public func export(
    positions: [Int], to path: String,
    transform: ((UnsafeBufferPointer<UInt8>, inout [UInt8]) -> Void)? = nil
  ) throws(TimelineError) -> Int {
    let file: LineFile
    do { file = try LineFile.createNew(path: path) } catch { throw .system(error) }
    defer { file.closeDescriptor() }
    var bytes: [UInt8] = []
    RecordLineEncoder.appendLine(header, to: &bytes)
    if let transform {
      let head = bytes.dropLast()
      bytes = []
      head.withUnsafeBufferPointer { transform($0, &bytes) }
      bytes.append(0x0A)
    }
    var written = 0
    var previous = -1
    for position in positions.sorted() where position != previous {
      previous = position
      var line = try line(at: position)
      if let transform { line.withUTF8 { transform($0, &bytes) } } else { bytes += line.utf8 }
      bytes.append(0x0A)
      written += 1
      if bytes.count >= 1 << 20 {
        do { try file.write(bytes) } catch { throw .system(error) }
        bytes.removeAll(keepingCapacity: true)
      }
    }
    do { try file.write(bytes) } catch { throw .system(error) }
    return written
  }
}
