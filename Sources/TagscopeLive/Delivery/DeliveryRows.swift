extension DeliveryBook {
  /// One provider call the hub handed to an SDK, compact: its strings are numbers into the
  /// book's ``DeliveryNames``, its reason and candidates (rare) in the book's side tables.
  struct Call: DeliveryShelved {
    /// The session position of its in-app record.
    var position: Int
    /// When it was made, by the device's clock.
    var called: Int64
    /// Its parameters' fingerprint.
    var print: Int
    var label: Int32
    var device: Int32
    /// 0: no user said.
    var user: Int32
    var callIndex: Int32
    /// The wire call that carried it (-1: none).
    var wire: Int32 = -1
    var state: DeliveryState
    /// Whether its number is in the book's list of calls that may be unsettled.
    var listed = false
    /// Whether its number is in its device's list of settled calls kept (``DeliveryBook``).
    var kept = false
    /// Whether it may have entries in the book's side tables (a reason, candidates, message
    /// ids): only then does retiring it look there.
    var hasNotes = false
    var isRetired = false

    var key: Int { position }
  }

  /// One call an SDK sent, as a wire record shows it, compact (40 bytes: a wire call waiting for
  /// its call or its answer is most of what a large upload in flight keeps): its session
  /// position, answer status and flags share one word, and its properties' fingerprint is not
  /// kept (only matching reads it: from the wire call's fact, then from its lane's index).
  struct Wire: DeliveryShelved {
    /// When it was sent, by the device's clock (a stamped message) or the Mac's.
    var time: Int64
    /// When it was answered (by the Mac's clock), if `status` is not 0.
    var answeredAt: Int64 = 0
    var label: Int32
    var source: Int32
    /// 0: no user said.
    var user: Int32
    /// The call it carried (-1: none known).
    var call: Int32 = -1
    /// The position (the high 44 bits), the answer's status (16) and the flags (4).
    private var bits: UInt64

    init(position: Int, time: Int64, label: Int32, source: Int32, user: Int32, printed: Bool) {
      precondition(position >= 0 && position < 1 << 44, "a session position beyond 2^44")
      (self.time, self.label, self.source, self.user) = (time, label, source, user)
      bits = UInt64(position) << 20
      self.printed = printed
    }

    /// The session position of its wire record.
    var position: Int { Int(bits >> 20) }

    var key: Int { position }

    /// The answer's HTTP status (clamped to 1...65535); 0: no answer yet.
    var status: Int32 {
      get { Int32((bits >> 4) & 0xFFFF) }
      set { bits = bits & ~(0xFFFF << 4) | UInt64(min(max(newValue, 0), 0xFFFF)) << 4 }
    }

    var printed: Bool {
      get { flag(0) }
      set { setFlag(0, newValue) }
    }

    var ambiguous: Bool {
      get { flag(1) }
      set { setFlag(1, newValue) }
    }

    var isRetired: Bool {
      get { flag(2) }
      set { setFlag(2, newValue) }
    }

    var isExplained: Bool { call >= 0 || ambiguous }

    var answer: (status: Int, at: Int64)? { status == 0 ? nil : (Int(status), answeredAt) }

    private func flag(_ bit: UInt64) -> Bool { bits & (1 << bit) != 0 }

    private mutating func setFlag(_ bit: UInt64, _ on: Bool) {
      bits = on ? bits | (1 << bit) : bits & ~(1 << bit)
    }
  }
}
