#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed system call, with the path or peer it was about.
public struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What was being done (`open`, `write`, `connect`…).
  public var operation: String
  /// The file or peer.
  public var subject: String
  /// `errno`.
  public var code: Int32

  /// An error from the current `errno`.
  package init(_ operation: String, _ subject: String, code: Int32 = errno) {
    self.operation = operation
    self.subject = subject
    self.code = code
  }

  public var description: String { "\(subject): \(operation) failed: \(String(cString: strerror(code)))" }
}

/// An open file descriptor for appending whole lines and reading byte ranges back.
package final class LineFile: @unchecked Sendable {
  private(set) var descriptor: Int32
  package let path: String
  private var owned: Bool

  private init(descriptor: Int32, path: String, owned: Bool) {
    self.descriptor = descriptor
    self.path = path
    self.owned = owned
  }

  /// Creates (truncating) a file for writing and reading.
  package static func create(path: String) throws(SystemError) -> LineFile {
    let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw SystemError("open", path) }
    return LineFile(descriptor: descriptor, path: path, owned: true)
  }

  /// Opens an existing file for reading.
  package static func openForReading(path: String) throws(SystemError) -> LineFile {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw SystemError("open", path) }
    return LineFile(descriptor: descriptor, path: path, owned: true)
  }

  /// Standard input, not closed by this object.
  package static func standardInput() -> LineFile { wrapping(descriptor: 0, name: "<stdin>") }

  /// An open descriptor (a pipe, a socket), not closed by this object.
  package static func wrapping(descriptor: Int32, name: String) -> LineFile {
    LineFile(descriptor: descriptor, path: name, owned: false)
  }

  deinit { closeDescriptor() }

  /// Closes the descriptor (once); later calls fail with `EBADF`. Callers serialize it with I/O.
  package func closeDescriptor() {
    guard owned else { return }
    owned = false
    close(descriptor)
    descriptor = -1
  }

  /// Writes all of `bytes` (retrying short writes and interrupts).
  package func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    var offset = 0
    while offset < bytes.count {
      let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        throw SystemError("write", path)
      }
      offset += written
    }
  }

  /// Writes all of `bytes`.
  package func write(_ bytes: [UInt8]) throws(SystemError) {
    try bytes.withUnsafeBytes { raw in Result { () throws(SystemError) in try write(raw) } }.get()
  }

  /// Reads up to `count` bytes into `buffer`; 0 at end of file.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
    while true {
      let got = systemRead(descriptor, buffer.baseAddress!, buffer.count)
      if got < 0 {
        if errno == EINTR { continue }
        throw SystemError("read", path)
      }
      return got
    }
  }

  /// Reads exactly `count` bytes at `offset` (fewer only at end of file).
  package func read(count: Int, at offset: UInt64) throws(SystemError) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let got = out.withUnsafeMutableBytes { raw in
        pread(descriptor, raw.baseAddress! + done, count - done, off_t(offset) + off_t(done))
      }
      if got < 0 {
        if errno == EINTR { continue }
        throw SystemError("read", path)
      }
      if got == 0 { break }
      done += got
    }
    if done < count { out.removeLast(count - done) }
    return out
  }

  /// The file's current size.
  package func size() throws(SystemError) -> UInt64 {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw SystemError("stat", path) }
    return UInt64(info.st_size)
  }
}

private func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    return Glibc.write(descriptor, pointer, count)
  #elseif canImport(Musl)
    return Musl.write(descriptor, pointer, count)
  #else
    return Darwin.write(descriptor, pointer, count)
  #endif
}

private func systemRead(_ descriptor: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    return Glibc.read(descriptor, pointer, count)
  #elseif canImport(Musl)
    return Musl.read(descriptor, pointer, count)
  #else
    return Darwin.read(descriptor, pointer, count)
  #endif
}
