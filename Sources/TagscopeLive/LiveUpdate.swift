import TaggingPlan
import TagscopeRecording
import TagscopeServer

/// What the live session's worker just stored, handed to its `onUpdate` (the debugger wakes its
/// event loop, the headless runner prints).
public struct LiveUpdate: Sendable {
  /// The events, in arrival order; records an inspector delivered come as `.records`, their drop
  /// markers as `.dropped` from source `inspector`.
  public var events: [ListenEvent]
  /// The plan violations of each record in ``events``, in the same order (empty without a plan).
  public var violations: [[PlanViolation]]
  /// The session position (the timeline's, when it stores to one) of the first record.
  public var firstPosition: Int
  /// The first failure writing the recording, reported once.
  public var writeFailure: SystemError?
}
