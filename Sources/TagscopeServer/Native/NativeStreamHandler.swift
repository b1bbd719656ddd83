import AnalyticsHub
import NIOCore
import TagscopeRecording

/// Reads a native stream (the recording format over TCP): a header line, then records.
///
/// The header names the source (`app@device`, else the peer address; `#2`, `#3`… appended while
/// another open connection has the same name) and carries the `token`
/// when the server requires one. Records are delivered in batches at the end of each read, with
/// `source` set; a bad line is counted and reported with its line number and the stream goes on.
/// A stream that does not start with a valid header, or without the right token, gets one JSON
/// line `{"error":…}` back and is closed. While the ingest queue is full the stream is not read
/// (TCP flow control slows the client down) and its idle deadline does not run.
///
/// Acknowledgements: a header with `"ack":true` gets lines `{"ack":SEQ}` back, SEQ the highest
/// `seq` of this stream now written to the recording (at most one acknowledgement in flight, so
/// they come about once per batch the live session writes). A header with a `run` (a `RemoteSink`'s
/// id for one app process) makes the records a reconnecting client starts with, at or below the
/// run's highest `seq` taken before, duplicates: acknowledged, counted and dropped, so a client may
/// resend whatever was not acknowledged when its connection broke. Records keep their run as the
/// `run` field. Past those, a `seq` at or below the stream's highest (out of order) is recorded
/// and reported as a problem (checked by `SequenceCheck` per source across its connections, as
/// the recording's check reads them, and counted in ``ServerStatistics/seqAnomalies``); one more than
/// ``seqJumpLimit`` past it is recorded and reported too, but does not become the highest (it would
/// acknowledge, and make duplicates of, everything below it). No acknowledgement covers such a
/// record, so its client resends it after a reconnect: the run remembers it and drops the resend
/// as a duplicate.
final class NativeStreamHandler: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private enum State {
    case awaitingHeader
    case streaming(source: String)
    case closed
  }

  private let server: ServerContext
  private var state = State.awaitingHeader
  private var lineNumber = 0
  private var pending: [Record] = []
  /// The recording lines of `pending`: each as it arrived, with `source` (and `run`) added.
  private var pendingLines: [[UInt8]] = []
  /// What each stored line ends with (`source`, `run`), made once the header named them.
  private var suffix: StoredSuffix?
  private var deadline: Scheduled<Void>?
  private var peer = "unknown"
  private var problems = ProblemBudget()
  /// The header's `run`, when the client resends unacknowledged records.
  private var run: String?
  /// Whether the client asked for acknowledgements.
  private var acknowledges = false
  /// The highest `seq` taken from this stream (delivered, or a duplicate of what was).
  private var taken: UInt64?
  /// The run's highest `seq` before this stream: records at or below it, before the first above
  /// it, are a reconnecting client's resends.
  private var resumedAt: UInt64?
  /// The source's `seq` check (taken over from its earlier connections): its problem lines and
  /// ``ServerStatistics/seqAnomalies``.
  private var sequence = SequenceCheck()
  /// The most a `seq` may pass the stream's highest and become the new highest.
  static let seqJumpLimit = SequenceCheck.jumpLimit
  /// The `seq` acknowledged last, and whether an acknowledgement is being waited for.
  private var acknowledged: UInt64?
  private var acknowledging = false
  /// The longest run id kept, in characters.
  static let runLimit = 64
  /// The longest source name, in characters (the header's app and device are untrusted).
  static let sourceLimit = 80

  init(server: ServerContext) { self.server = server }

  func handlerAdded(context: ChannelHandlerContext) {
    if let address = context.channel.remoteAddress {
      peer = "\(address.ipAddress ?? "unknown"):\(address.port ?? 0)"
    }
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    let server = self.server
    deadline = context.eventLoop.scheduleTask(in: server.configuration.headerTimeout) {
      server.statistics.timeout(.nativeHeader)
      loopBound.value.close(promise: nil)
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let line = unwrapInboundIn(data)
    lineNumber += 1
    switch state {
    case .awaitingHeader: readHeader(line, context: context)
    case .streaming(let source): readRecord(line, source: source, context: context)
    case .closed: break
    }
  }

  func channelReadComplete(context: ChannelHandlerContext) {
    flush()
    acknowledge(context: context)
    if case .streaming = state {
      if server.ingest.hasRoom { armIdleDeadline(context: context) } else { pauseReading(context: context) }
    }
    context.fireChannelReadComplete()
  }

  /// Stops reading until the ingest queue has room, then reads on (and restarts the idle deadline).
  private func pauseReading(context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = nil
    server.statistics.update { $0.pausedReads += 1 }
    context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    let eventLoop = context.eventLoop
    server.ingest.whenRoom {
      eventLoop.execute {
        let (handler, context) = loopBound.value
        guard case .streaming = handler.state else { return }
        handler.armIdleDeadline(context: context)
        context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
      }
    }
  }

  /// Restarts the idle deadline of a streaming connection, when the configuration sets one.
  private func armIdleDeadline(context: ChannelHandlerContext) {
    guard let timeout = server.configuration.nativeIdleTimeout else { return }
    deadline?.cancel()
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    let server = self.server
    deadline = context.eventLoop.scheduleTask(in: timeout) {
      server.statistics.timeout(.nativeIdle)
      loopBound.value.close(promise: nil)
    }
  }

  /// A client's half-close: what it sent is delivered, acknowledged once stored when it asked
  /// for acknowledgements, then the connection closes.
  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    guard case ChannelEvent.inputClosed = event else {
      context.fireUserInboundEventTriggered(event)
      return
    }
    flush()
    guard acknowledges, case .streaming = state, let target = taken, acknowledged.map({ target > $0 }) ?? true
    else {
      context.close(promise: nil)
      return
    }
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    let eventLoop = context.eventLoop
    server.ingest.whenStored {
      eventLoop.execute {
        let (handler, context) = loopBound.value
        if case .streaming = handler.state, context.channel.isActive,
          handler.acknowledged.map({ target > $0 }) ?? true
        {
          handler.send(acknowledgement: target, context: context)
        }
        context.close(promise: nil)
      }
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    deadline?.cancel()
    flush()
    end()
    context.fireChannelInactive()
  }

  /// Ends the stream once: frees its source name (a refused stream too) and sums up hidden problems.
  private func end() {
    switch state {
    case .streaming(let source):
      if let summary = problems.summary(source: source) { server.deliver(summary) }
      server.releaseSource(source, sequence: sequence)
      server.deliver(.sourceDisconnected(source: source))
    case .awaitingHeader, .closed:
      if let summary = problems.summary(source: peer) { server.deliver(summary) }
    }
    state = .closed
  }

  /// Reports a problem within the connection's budget.
  private func report(source: String, _ message: String) {
    if let event = problems.problem(source: source, message: message) { server.deliver(event) }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if error is LineTooLongError {
      server.statistics.reject(.lineTooLong)
      refuse(
        "line \(lineNumber + 1) is longer than \(server.configuration.maximumLineBytes) bytes",
        context: context)
    } else {
      context.close(promise: nil)
    }
  }

  private func flush() {
    guard !pending.isEmpty else { return }
    let records = pending
    let lines = pendingLines
    pending.removeAll(keepingCapacity: true)
    pendingLines.removeAll(keepingCapacity: true)
    server.deliver(records, lines: lines)
    if let run, let taken { server.took(run: run, upTo: taken) }
  }

  /// Asks the ingest to say when what was taken so far is stored, then sends `{"ack":SEQ}`; one
  /// request at a time, the next one covering what came meanwhile.
  private func acknowledge(context: ChannelHandlerContext) {
    guard acknowledges, !acknowledging, case .streaming = state, let target = taken,
      acknowledged.map({ target > $0 }) ?? true
    else { return }
    acknowledging = true
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    let eventLoop = context.eventLoop
    server.ingest.whenStored {
      eventLoop.execute {
        let (handler, context) = loopBound.value
        handler.acknowledging = false
        guard case .streaming = handler.state, context.channel.isActive else { return }
        handler.send(acknowledgement: target, context: context)
        handler.acknowledge(context: context)
      }
    }
  }

  private func readHeader(_ line: ByteBuffer, context: ChannelHandlerContext) {
    if line.readableBytesView.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
      lineNumber -= 1
      return
    }
    let decoded = line.withUnsafeReadableBytes { raw in
      Result { () throws(RecordLineError) in try RecordLineDecoder.decode(raw.bindMemory(to: UInt8.self)) }
    }
    guard case .success(.header(let header)) = decoded, header.format == RecordingHeader.formatName else {
      server.statistics.reject(.badHeader)
      refuse("line 1 is not a tagscope-recording header", context: context)
      return
    }
    if let check = server.tokenCheck, !check.matches(header.extra["token"]) {
      server.statistics.reject(.badToken)
      refuse("missing or wrong token in the header", context: context)
      return
    }
    deadline?.cancel()
    deadline = nil
    var base: String
    switch (header.app, header.device) {
    case (let app?, let device?): base = "\(app)@\(device)"
    case (let app?, nil): base = app
    case (nil, let device?): base = device
    case (nil, nil): base = peer
    }
    base = base.clipped(to: Self.sourceLimit)
    let (source, sourceSequence) = server.claimSource(base)
    sequence = sourceSequence
    state = .streaming(source: source)
    server.statistics.update { $0.nativeStreams += 1 }
    acknowledges = header.extra["ack"]?.boolValue == true
    if case .string(let id)? = header.extra["run"], !id.isEmpty {
      run = id.clipped(to: Self.runLimit)
      taken = server.highestSeq(run: run!)
      resumedAt = taken
    }
    var announced = header
    announced.extra["token"] = nil
    server.deliver(.sourceConnected(source: source, header: announced))
    // The first acknowledgement says this server acknowledges: what the run already has here.
    if acknowledges {
      if taken == nil { send(acknowledgement: 0, context: context) } else { acknowledge(context: context) }
    }
  }

  private func send(acknowledgement seq: UInt64, context: ChannelHandlerContext) {
    acknowledged = seq
    var buffer = context.channel.allocator.buffer(capacity: 32)
    buffer.writeString("{\"ack\":\(seq)}\n")
    context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
  }

  private func readRecord(_ line: ByteBuffer, source: String, context: ChannelHandlerContext) {
    if line.readableBytes == 0 { return }
    let decoded = line.withUnsafeReadableBytes { raw in
      Result { () throws(RecordLineError) in try RecordLineDecoder.decode(raw.bindMemory(to: UInt8.self)) }
    }
    switch decoded {
    case .success(.record(var record)):
      if let run {
        if let resumed = resumedAt, record.seq <= resumed {
          server.statistics.update { $0.duplicates += 1 }
          return
        }
        // A record taken far past the run's highest is never acknowledged: its resend is dropped.
        if server.tookJump(run: run, seq: record.seq) {
          server.statistics.update { $0.duplicates += 1 }
          return
        }
        resumedAt = nil
        record.extra["run"] = .string(run)
      }
      take(record.seq, source: source)
      record.source = source
      pending.append(record)
      if suffix == nil { suffix = StoredSuffix(source: source, run: run) }
      pendingLines.append(Self.storedLine(line, suffix: suffix!))
    case .success(.dropped(let marker)):
      flush()
      server.statistics.update { $0.droppedByClients += marker.count }
      server.deliver(.dropped(source: source, marker: marker))
    case .success(.header):
      server.statistics.reject(.badLine)
      report(source: source, "line \(lineNumber): a second header, ignored")
    case .failure(let error):
      server.statistics.reject(.badLine)
      flush()
      report(source: source, "line \(lineNumber): \(error)")
    }
  }

  /// Raises the stream's highest `seq` to `seq` unless it is at or below it, or more than
  /// ``seqJumpLimit`` past it (a jump the run remembers: no acknowledgement covers it), and
  /// reports and counts what the source's ``SequenceCheck`` finds in it (the check `validate` and
  /// the live timeline make).
  private func take(_ seq: UInt64, source: String) {
    if let anomaly = sequence.check(seq: seq, sourceKey: 0) {
      server.count(anomaly)
      report(source: source, "line \(lineNumber): \(anomaly): recorded")
    }
    guard let highest = taken else {
      taken = seq
      return
    }
    if seq > highest, seq - highest > Self.seqJumpLimit {
      if let run { server.noteJump(run: run, seq: seq) }
    } else if seq > highest {
      taken = seq
    }
  }

  private func refuse(_ message: String, context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = nil
    flush()
    let source: String
    if case .streaming(let name) = state { source = name } else { source = peer }
    report(source: source, message)
    end()
    var reply = context.channel.allocator.buffer(capacity: message.utf8.count + 16)
    reply.writeString(JSONText.string(["error": .string(message)]) + "\n")
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    context.writeAndFlush(wrapOutboundOut(reply)).whenComplete { _ in loopBound.value.close(promise: nil) }
  }

  /// The line a record is stored as: the bytes that arrived, with `"source"` (and `"run"`) added
  /// as the object's last keys, which every reader takes over an earlier key of the same name.
  static func storedLine(_ line: ByteBuffer, source: String, run: String?) -> [UInt8] {
    storedLine(line, suffix: StoredSuffix(source: source, run: run))
  }

  /// ``storedLine(_:source:run:)`` with the suffix made once per stream: two copies of bytes.
  static func storedLine(_ line: ByteBuffer, suffix: StoredSuffix) -> [UInt8] {
    line.withUnsafeReadableBytes { raw in
      var end = raw.count
      while end > 0, raw[end - 1] == 0x20 || raw[end - 1] == 0x09 || raw[end - 1] == 0x0D { end -= 1 }
      guard end > 0, raw[end - 1] == UInt8(ascii: "}") else { return Array(raw[..<end]) }
      end -= 1
      var before = end
      while before > 0,
        raw[before - 1] == 0x20 || raw[before - 1] == 0x09 || raw[before - 1] == 0x0D
          || raw[before - 1] == 0x0A
      {
        before -= 1
      }
      // `{}`: no key before ours, so no comma.
      let tail = before > 0 && raw[before - 1] == UInt8(ascii: "{") ? suffix.alone : suffix.afterKeys
      return [UInt8](unsafeUninitializedCapacity: end + tail.count) { buffer, count in
        let target = UnsafeMutableRawPointer(buffer.baseAddress!)
        if end > 0 { target.copyMemory(from: raw.baseAddress!, byteCount: end) }
        tail.withUnsafeBytes { (target + end).copyMemory(from: $0.baseAddress!, byteCount: tail.count) }
        count = end + tail.count
      }
    }
  }
}

/// The end of a native stream's stored lines: `,"source":…(,"run":…)}` and a newline, and the same
/// without the comma for an empty object.
struct StoredSuffix: Sendable {
  let afterKeys: [UInt8]
  let alone: [UInt8]

  init(source: String, run: String?) {
    var keys = "\"source\":" + JSONText.quoted(source)
    if let run { keys += ",\"run\":" + JSONText.quoted(run) }
    afterKeys = Array(("," + keys + "}\n").utf8)
    alone = Array((keys + "}\n").utf8)
  }
}
