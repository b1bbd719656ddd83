import NIOCore
import NIOHTTP1

/// Where a request's head leads, as its pipeline's final stage routes it.
enum HeadRoute {
  /// Its body is collected for `endpoint` to decode (`nil`: none decodes it; the proxy forwards
  /// it as it is).
  case collect((any SDKEndpoint)?)
  /// Its reply does not depend on its body (404, 405, a preflight, the query API): answered at
  /// its end, or with `early` at once to a client waiting for `100 Continue`.
  case answer(EndpointRouter.Route, early: SDKReply)
  /// Refused from its head: answered now, the rest of it discarded, then the connection closed.
  case refuse(SDKReply)
  /// Passed on, whole, to the handlers after the pipeline, which answer it.
  case handedOn
  /// The stage closed the connection.
  case closed
}

/// What follows a request's intake, as its final stage decides from the reply.
enum IntakeOutcome {
  /// The reply is written now; nothing waits for storage.
  case reply
  /// The final stage completes the request once its records are stored.
  case store
  /// The final stage completes the request now (nothing of it was taken).
  case complete
}

/// The last stage of the SDK request pipeline (``RequestPipeline``): what differs between
/// `listen`, which replies, and the proxy, which forwards and relays. Everything else (admission,
/// collection, intake, storage, deadlines, half-close, errors) is the pipeline's, once.
protocol FinalStage: AnyObject {
  /// The server whose limits, statistics and session the requests go to.
  var server: ServerContext { get }
  /// Said after a request refused by the pipeline itself, in its problem line.
  var refusalNote: String { get }

  /// The pipeline this stage ends was added to a channel.
  func attach(to pipeline: RequestPipeline<Self>)
  /// Where the request `head` leads.
  func route(_ head: HTTPRequestHead, pipeline: RequestPipeline<Self>, context: ChannelHandlerContext)
    -> HeadRoute
  /// Answers a request routed to `.answer` at its end, through `pipeline` (now, or later after
  /// ``RequestPipeline/awaitAnswer()``).
  func answer(
    _ route: EndpointRouter.Route, head: HTTPRequestHead, pipeline: RequestPipeline<Self>,
    context: ChannelHandlerContext)
  /// The path a problem line names for `head`.
  func countedPath(_ head: HTTPRequestHead) -> String
  /// How many bytes the intake of a collected body counts (the large-body queue takes it from
  /// ``RequestPolicy/offloadBytes`` on), and the endpoint's answer to it.
  func intake(head: HTTPRequestHead, endpoint: any SDKEndpoint, body: ByteBuffer, peerHost: String)
    -> (bytes: Int, answer: @Sendable () -> SDKReply)
  /// The intake took the request.
  func intakeTaken()
  /// What follows the intake's `reply` (`accepted`: records were delivered), and what its problem
  /// line says after it.
  func outcome(of reply: SDKReply, accepted: Bool) -> (IntakeOutcome, note: String)
  /// The problem line of a request whose `skipped` messages were taken before (an SDK's retry).
  func skippedReport(_ head: HTTPRequestHead, skipped: Int) -> String
  /// The problem line of a request whose records were not stored within the request timeout.
  func storageTimeoutReport(_ head: HTTPRequestHead) -> String
  /// Whether ``complete(head:body:reply:closeAfter:context:)`` reads the body of a request an
  /// endpoint took in (the proxy forwards it): when it does not, the pipeline lets go of the body
  /// once the intake has made its own copy.
  var completesWithBody: Bool { get }
  /// Completes a request with its intake's `reply` (`nil`: none decoded it): the reply to write,
  /// or `nil` when the stage answers (forwards) itself; `closeAfter`: the connection closes after.
  func complete(
    head: HTTPRequestHead, body: ByteBuffer, reply: SDKReply?, closeAfter: Bool,
    context: ChannelHandlerContext
  ) -> SDKReply?
  /// A new request is taken in: the vendor exchange its records go with, if the stage forwards it.
  func wireExchange() -> WireExchange?
  /// Adds the stage's headers to a reply the pipeline writes to `request`.
  func addHeaders(to headers: inout HTTPHeaders, request: HTTPRequestHead, context: ChannelHandlerContext)
  /// The connection closes once the answer under way is written.
  func closeAfterAnswer()
  /// The client ended its input while an answer is awaited: whether the stage gives it up (the
  /// connection then closes at once).
  func abandonsAwaitedAnswer() -> Bool
  /// The connection is gone.
  func end()
}

extension FinalStage {
  /// `listen`'s own stage answers itself: no vendor exchange.
  func wireExchange() -> WireExchange? { nil }

  /// A stage reads the body at completion unless it says otherwise.
  var completesWithBody: Bool { true }
}
