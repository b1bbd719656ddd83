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
  }

  /// One call an SDK sent, as a wire record shows it, compact.
  struct Wire: DeliveryShelved {
    /// The session position of its wire record.
    var position: Int
    /// When it was sent, by the device's clock (a stamped message) or the Mac's.
    var time: Int64
    /// Its properties' fingerprint, if `printed`.
    var print: Int
    /// When it was answered (by the Mac's clock), if `status` is not 0.
    var answeredAt: Int64 = 0
    var label: Int32
    var source: Int32
    /// 0: no user said.
    var user: Int32
    /// The call it carried (-1: none known).
    var call: Int32 = -1
    /// The answer's HTTP status; 0: no answer yet.
    var status: Int32 = 0
    var printed: Bool
    var ambiguous = false
    var isRetired = false

    var isExplained: Bool { call >= 0 || ambiguous }

    var answer: (status: Int, at: Int64)? { status == 0 ? nil : (Int(status), answeredAt) }
  }
}
