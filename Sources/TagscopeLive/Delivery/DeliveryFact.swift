/// What the delivery ledger's worker matches on of one call or wire call, compact: numbers for
/// its strings (``DeliveryNames``), its parameters' fingerprint, no reference to the record (the
/// live session's worker frees and touches its records while the ledger's matches).
struct DeliveryFact: Sendable {
  enum Kind: UInt8, Sendable {
    /// An in-app call the hub handed to an SDK.
    case call
    /// An in-app call the SDK drops (``DeliveryBook/dropsTheCall(_:)``); `extra`: its rule.
    case droppedCall
    /// A call an SDK sent.
    case wire
    /// A record without calls: only its source's clock is noted.
    case clock
  }

  var kind: Kind
  /// The first fact of its record: the source's clock is noted before it is applied.
  var startsRecord = false
  /// The first fact of an in-app record of a new run of its device's app: the calls it still
  /// queued are lost.
  var restarts = false
  /// A wire call whose properties are mapped (else it matches on its kind alone).
  var printed = false
  /// A wire call `listen` answered itself, with success, when it was received.
  var answered = false
  /// The in-app device or wire source, and the label (provider, method, name).
  var source: Int32
  var label: Int32 = -1
  /// 0: no user said.
  var user: Int32 = 0
  var callIndex: Int32 = 0
  /// Its batch's ``DeliveryBatch/ids`` (calls, wire calls) or ``DeliveryBatch/reasons``
  /// (dropped calls) index; -1: none.
  var extra: Int32 = -1
  /// Its record's session position and time (by the device's clock, or the Mac's).
  var position: Int
  var time: Int64
  /// Its parameters' fingerprint (``DeliveryFacts/fingerprint(_:)``).
  var print = 0
}

/// The facts of the records of one ``DeliveryLedger/enqueue(_:firstPosition:received:wireAnswered:)``,
/// with the names they number first and the rare strings they carry.
struct DeliveryBatch: Sendable {
  /// Received (by the Mac's clock, ms).
  var received: Int64
  /// The records they are of: the inbox's weight.
  var records = 0
  var facts: [DeliveryFact] = []
  /// The names numbered for these facts.
  var names = DeliveryNames.Fresh()
  /// Providers first seen on the wire (a wire source can show their calls).
  var wireProviders: [Int32] = []
  /// The SDK message ids calls and wire calls carry.
  var ids: [[String]] = []
  /// The rules dropped calls break.
  var reasons: [String] = []
}
