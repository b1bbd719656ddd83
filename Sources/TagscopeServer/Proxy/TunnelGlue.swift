import NIOCore

/// One end of a byte-for-byte tunnel between two channels on the same event loop: what one side
/// reads the other writes, a side that cannot keep up pauses the other's reads, and a close on
/// either side closes both.
final class TunnelGlue: ChannelDuplexHandler {
  typealias InboundIn = ByteBuffer
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private var partner: TunnelGlue?
  private var context: ChannelHandlerContext?
  private var pendingRead = false

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

  private func partnerClose() { context?.close(promise: nil) }

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
