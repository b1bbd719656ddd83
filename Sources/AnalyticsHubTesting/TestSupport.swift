import AnalyticsHub
import Foundation

/// An adapter that keeps every call it receives, for an app's unit tests; a ``DispatchRecorder``
/// observing the hub says which provider rules those calls broke:
///
/// ```swift
/// let firebase = TestAdapter<FirebaseCall>()
/// try hub.register(Firebase.provider(adapter: firebase, mapping: firebaseMapping))
/// let dispatches = DispatchRecorder(observing: hub)  // rules are checked while the hub is observed
/// hub.send(userAction: .playPodcast(podcast))
/// hub.flush()  // every tag sent so far has reached its adapters
/// XCTAssertEqual(firebase.names.last, "play_podcast_from_favorites")
/// try dispatches.assertNoRuleViolations()  // fails naming each provider, rule and message
/// ```
public final class TestAdapter<Call: ProviderCall>: SDKAdapter, @unchecked Sendable {
  private let lock = NSLock()
  private var received: [Call] = []
  private var setups = 0
  private var failure: (any Error)?

  /// An empty recorder.
  public init() {}

  public func setup() {
    lock.lock()
    setups += 1
    lock.unlock()
  }

  public func deliver(_ call: Call) throws {
    lock.lock()
    defer { lock.unlock() }
    if let failure { throw failure }
    received.append(call)
  }

  /// Every call received, in order.
  public var calls: [Call] {
    lock.lock()
    defer { lock.unlock() }
    return received
  }

  /// The `name` of every call received, in order (calls without a name are skipped).
  public var names: [String] { calls.compactMap(\.name) }

  /// How many times `setup()` ran.
  public var setupCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return setups
  }

  /// Makes later deliveries throw `error` (or succeed again with `nil`), to test `failed` outcomes.
  public func failDeliveries(with error: (any Error)?) {
    lock.lock()
    failure = error
    lock.unlock()
  }

  /// Forgets the calls received so far.
  public func removeAll() {
    lock.lock()
    received.removeAll()
    lock.unlock()
  }
}

/// An observer that keeps every dispatch, for tests and tools; it also says which provider rules
/// the dispatched tags broke (``violations``, ``assertNoRuleViolations(provider:)``).
public final class DispatchRecorder: HubObserver, @unchecked Sendable {
  private let lock = NSLock()
  private var received: [Dispatch] = []
  /// `false` when the observed hub does not check providers' rules at all.
  let checksRules: Bool

  /// An empty recorder; attach it with `hub.addObserver(_:)`.
  public init() { checksRules = true }

  /// A recorder observing `hub` from now on. A hub checks providers' rules only while it is
  /// observed, so add it before sending the tags whose calls you check.
  public init<T: Taxonomy>(observing hub: AnalyticsHub<T>) {
    checksRules = hub.configuration.checksProviderRules
    hub.addObserver(self)
  }

  public func hubDidDispatch(_ dispatch: Dispatch) {
    lock.lock()
    received.append(dispatch)
    lock.unlock()
  }

  /// Every dispatch received, in order.
  public var dispatches: [Dispatch] {
    lock.lock()
    defer { lock.unlock() }
    return received
  }

  /// The last dispatch.
  public var last: Dispatch? { dispatches.last }
}
