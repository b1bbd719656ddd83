import Foundation
import TagscopeRecording

extension Timeline {
  /// Writes the records at `positions` (timeline order, each once) to a new recording at `path`:
  /// this recording's header, then each record's line exactly as stored, so `replay` and
  /// `validate` read the export as they read this recording. Never overwrites a file: an existing
  /// `path` is an error. Returns how many records were written.
  @discardableResult
  public func export(positions: [Int], to path: String) throws(TimelineError) -> Int {
    let file: LineFile
    do { file = try LineFile.createNew(path: path) } catch { throw .system(error) }
    defer { file.closeDescriptor() }
    var bytes: [UInt8] = []
    RecordLineEncoder.appendLine(header, to: &bytes)
    var written = 0
    var previous = -1
    for position in positions.sorted() where position != previous {
      previous = position
      let line = try line(at: position)
      bytes += line.utf8
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
