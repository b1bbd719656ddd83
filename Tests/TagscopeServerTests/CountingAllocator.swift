import Foundation
@_spi(CustomByteBufferAllocator) import NIOCore

/// The bytes of the buffers a ``countingAllocator`` made that are still allocated.
final class LiveBufferBytes: @unchecked Sendable {
  private let lock = NSLock()
  private var sizes: [UInt: Int] = [:]

  /// The bytes allocated and not yet freed.
  var bytes: Int { lock.withLock { sizes.values.reduce(0, +) } }

  fileprivate func allocated(_ pointer: UnsafeMutableRawPointer?, size: Int) {
    guard let pointer else { return }
    lock.withLock { sizes[UInt(bitPattern: pointer)] = size }
  }

  fileprivate func freed(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    _ = lock.withLock { sizes.removeValue(forKey: UInt(bitPattern: pointer)) }
  }
}

/// What ``countingAllocator`` has allocated and not freed (one for the whole test process: a C
/// function pointer captures nothing; tests reading it compare before and after).
let liveBufferBytes = LiveBufferBytes()

/// A `ByteBufferAllocator` that counts the bytes of its buffers still alive in ``liveBufferBytes``.
let countingAllocator = ByteBufferAllocator(
  allocate: { size in
    let pointer = malloc(size)
    liveBufferBytes.allocated(pointer, size: size)
    return pointer
  },
  reallocate: { pointer, _, newSize in
    liveBufferBytes.freed(pointer)
    let moved = realloc(pointer, newSize)
    liveBufferBytes.allocated(moved, size: newSize)
    return moved
  },
  deallocate: { pointer in
    liveBufferBytes.freed(pointer)
    free(pointer)
  },
  copy: { destination, source, count in destination.copyMemory(from: source, byteCount: count) })
