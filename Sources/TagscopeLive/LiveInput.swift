import Foundation
import TagscopeRecording
import TagscopeServer

/// One entry of the live session's queue: what the server read, with the recording lines of its
/// records and drop marker (encoded on the event loop that read them, so the single worker only
/// writes), or what an in-process inspector delivered (lines already encoded).
enum LiveInput: Sendable {
  case event(ListenEvent, items: [SinkItem])
  /// The records of an SDK request the proxy forwards (their lines encoded): in flight in the
  /// delivery ledger until `exchange` says the vendor's answer.
  case forwarded([Record], items: [SinkItem], exchange: WireExchange)
  case items([SinkItem])
  /// Called once what came before it is stored.
  case stored(@Sendable () -> Void)
  /// Called once what came before it is applied (written to the store's buffer, not synced).
  case applied(@Sendable () -> Void)
  /// A marker line written behind what came before it; then `done` is called on the worker with
  /// the position of the next record.
  case marker(SinkItem, done: @Sendable (Int) -> Void)
  /// The vendor answered `status` at `time` to the forwarded request whose records are at the
  /// session positions `positions`: a ``DeliveryAnswerMarker`` line behind what came before it.
  case answer(status: Int, at: Date, positions: Range<Int>)

  /// `event` with its lines encoded.
  init(_ event: ListenEvent) {
    switch event {
    case .records(let records): self = .event(event, items: SinkItem.items(records))
    case .dropped(_, let marker): self = .event(event, items: [SinkItem(marker)])
    default: self = .event(event, items: [])
    }
  }

  /// About the memory it holds while queued: its lines (the records' JSON) three times over,
  /// for the decoded records beside them, plus 256 bytes an item.
  var bytes: Int {
    let items: [SinkItem]
    switch self {
    case .event(_, let held), .items(let held), .forwarded(_, let held, _): items = held
    case .marker(let item, _): items = [item]
    case .stored, .applied: return 0
    case .answer: return 256
    }
    return items.reduce(0) { $0 + 256 + 3 * $1.line.count }
  }

  /// Its weight in the queue's bound: its records, or one.
  var weight: Int {
    switch self {
    case .event(.records(let records), _), .forwarded(let records, _, _): return records.count
    case .event: return 1
    case .items(let items): return items.count
    case .stored, .applied, .marker, .answer: return 0
    }
  }
}
