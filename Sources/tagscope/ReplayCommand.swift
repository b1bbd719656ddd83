import ArgumentParser
import Foundation
import TagscopeInspector
import TagscopeUI

/// `tagscope replay FILE`: a recording in the debugger, stopped at the first record.
struct ReplayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Step through a recording in the terminal debugger.",
    discussion: """
      Opens stopped at the first record: space plays at recorded speed (+/- change it), . and , step \
      one record, ←/→ seek 10 s, g/G go to the start/end, : jumps to a record number or a time. \
      Screens, Session and Providers show the state as of the selected record. Bad lines are \
      reported with their line number and skipped.
      """
  )

  @Argument(help: "The recording (JSON Lines), or - for standard input.")
  var file: String

  func run() throws {
    let reader: RecordingReader
    do {
      reader = try RecordingReader(path: file)
    } catch {
      FileHandle.standardError.write(Data("tagscope: \(error)\n".utf8))
      throw ExitCode(2)
    }
    let label = file == "-" ? "stdin" : URL(fileURLWithPath: file).lastPathComponent
    let store = RecordStore(appName: reader.header.app ?? "recording", sourceLabel: label)
    let wakeup = Wakeup()
    store.setListener { wakeup.signal() }
    let loader = RecordingLoader(reader: reader, store: store)
    loader.start()
    let stats: Result<LoopStats, TerminalError>
    do {
      stats = .success(try TerminalUI.run(timeline: store, mode: .replay, wakeup: wakeup))
    } catch {
      stats = .failure(error)
    }
    loader.stop()
    for problem in loader.problems.prefix(20) {
      FileHandle.standardError.write(Data("tagscope: \(problem)\n".utf8))
    }
    if loader.problems.count > 20 {
      FileHandle.standardError.write(
        Data("tagscope: … and \(loader.problems.count - 20) more bad lines\n".utf8))
    }
    if case .failure(let error) = stats {
      FileHandle.standardError.write(Data((error.description + "\n").utf8))
      throw ExitCode(2)
    }
  }
}

/// Reads a recording on a background thread into the UI's store, in batches, so a large file shows
/// its first records at once; bad lines are kept to report after the UI closes.
final class RecordingLoader: @unchecked Sendable {
  private let reader: RecordingReader
  private let store: RecordStore
  private let lock = NSCondition()
  private var stopping = false
  private var finished = false
  private var collected: [String] = []

  init(reader: RecordingReader, store: RecordStore) {
    self.reader = reader
    self.store = store
  }

  /// Bad lines found so far, each naming the file and line.
  var problems: [String] {
    lock.lock()
    defer { lock.unlock() }
    return collected
  }

  func start() {
    let thread = Thread { [self] in
      load()
      lock.lock()
      finished = true
      lock.broadcast()
      lock.unlock()
    }
    thread.name = "tagscope.replay.loader"
    thread.start()
  }

  /// Stops reading (at the next batch) and waits for the thread, unless it is blocked on a pipe
  /// that never ends, in which case the process exit ends it.
  func stop() {
    lock.lock()
    stopping = true
    let deadline = Date().addingTimeInterval(0.5)
    while !finished && lock.wait(until: deadline) {}
    lock.unlock()
  }

  private var isStopping: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stopping
  }

  private func load() {
    var batch: [RecordView] = []
    batch.reserveCapacity(4096)
    do {
      while let entry = try reader.next() {
        switch entry {
        case .record(let record, _): batch.append(RecordView(record))
        case .dropped(let marker, _): store.noteDropped(marker.count)
        case .problem(let problem):
          lock.lock()
          collected.append(problem.description)
          lock.unlock()
        }
        if batch.count >= 4096 {
          store.append(contentsOf: batch)
          batch.removeAll(keepingCapacity: true)
          if isStopping { return }
        }
      }
    } catch {
      lock.lock()
      collected.append(error.description)
      lock.unlock()
    }
    store.append(contentsOf: batch)
  }
}
