import NIOCore

/// A native line longer than the limit.
struct LineTooLongError: Error {}

/// Splits a byte stream into lines (without `\n` or `\r\n`), refusing a line longer than the
/// limit; a last line without `\n` is passed on at end of stream.
struct LineFrameDecoder: ByteToMessageDecoder {
  typealias InboundOut = ByteBuffer

  let maximumLength: Int
  /// Where the search for `\n` resumes, so a long line is scanned once.
  private var scanned = 0

  init(maximumLength: Int) { self.maximumLength = maximumLength }

  mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
    let view = buffer.readableBytesView
    guard let newline = view[(view.startIndex + scanned)...].firstIndex(of: UInt8(ascii: "\n")) else {
      scanned = view.count
      if view.count > maximumLength { throw LineTooLongError() }
      return .needMoreData
    }
    scanned = 0
    let length = newline - view.startIndex
    guard length <= maximumLength else { throw LineTooLongError() }
    var line = buffer.readSlice(length: length)!
    buffer.moveReaderIndex(forwardBy: 1)
    if line.readableBytesView.last == UInt8(ascii: "\r") { line.moveWriterIndex(to: line.writerIndex - 1) }
    context.fireChannelRead(wrapInboundOut(line))
    return .continue
  }

  mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
    -> DecodingState
  {
    while try decode(context: context, buffer: &buffer) == .continue {}
    scanned = 0
    if buffer.readableBytes > 0 {
      let rest = buffer.readSlice(length: buffer.readableBytes)!
      context.fireChannelRead(wrapInboundOut(rest))
    }
    return .needMoreData
  }
}
