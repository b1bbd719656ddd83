import NIOCore

/// One end of a byte-for-byte tunnel between two channels on the same event loop: what one side
/// reads the other writes, a side that cannot keep up pauses the other's reads; a half-close on
/// one side (its input ended) shuts the other's write side once what it read is written, both
/// close when both sides ended, and a close on either side closes both once what it sent is
/// written.
final class TunnelGlue: ChannelDuplexHandler {
  typealias InboundIn = ByteBuffer
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private var partner: TunnelGlue?
  private var context: ChannelHandlerContext?
  private var pendingRead = false
  /// This channel's input ended (its peer half-closed).
  private var inputClosed = false
  /// This channel's write side was shut (the partner's input ended).
  private var outputShut = false

  private init() {}

  /// A pair of glued handlers: add one to each channel.
  static func pair() -> (TunnelGlue, TunnelGlue) {
    let first = TunnelGlue()
    let second = TunnelGlue()
    first.partner = second
    second.partner = first
    return (first, second)
  }

  func handlerAdded(context: ChannelHandlerContext) { self.context = context }

  func handlerRemoved(context: ChannelHandlerContext) {
    self.context = nil
    partner = nil
  }

  private func partnerWrite(_ data: NIOAny) { context?.write(data, promise: nil) }

  private func partnerFlush() { context?.flush() }

  /// Closes once what was written is sent (an empty write completes after those before it).
  private func partnerClose() {
    guard let context else { return }
    let written = context.eventLoop.makePromise(of: Void.self)
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    written.futureResult.whenComplete { _ in loopBound.value.close(promise: nil) }
    context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(capacity: 0)), promise: written)
  }

  /// The partner's input ended: this side's write side is shut once what it wrote is sent (NIO
  /// shuts it after the pending writes), or, when this side's input ended too, it closes.
  private func partnerInputEnded() {
    guard let context else { return }
    if inputClosed {
      partnerClose()
      return
    }
    outputShut = true
    context.flush()
    context.close(mode: .output, promise: nil)
  }

  private var partnerWritable: Bool { context?.channel.isWritable ?? false }

  private func partnerBecameWritable() {
    guard pendingRead else { return }
    pendingRead = false
    context?.read()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    partner?.partnerWrite(data)
  }

  func channelReadComplete(context: ChannelHandlerContext) {
    partner?.partnerFlush()
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    guard case ChannelEvent.inputClosed = event else {
      context.fireUserInboundEventTriggered(event)
      return
    }
    inputClosed = true
    partner?.partnerInputEnded()
    if outputShut { context.close(promise: nil) }
  }

  func channelInactive(context: ChannelHandlerContext) {
    partner?.partnerClose()
    context.fireChannelInactive()
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    if context.channel.isWritable { partner?.partnerBecameWritable() }
    context.fireChannelWritabilityChanged()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }

  func read(context: ChannelHandlerContext) {
    if partner?.partnerWritable ?? false {
      context.read()
    } else {
      pendingRead = true
    }
  }
}
