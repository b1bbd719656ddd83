import TagscopeInspector

/// Delivers an ``Inspector``'s records to a ``RecordStore`` (the live demo's timeline), on the
/// inspector's background thread. Drop markers are counted.
public final class RecordStoreSink: RecordSink {
  private let store: RecordStore

  /// A sink appending to `store`.
  public init(store: RecordStore) { self.store = store }

  public func receive(_ items: [SinkItem]) {
    var records: [RecordView] = []
    records.reserveCapacity(items.count)
    for item in items {
      switch item {
      case .record(let record, _): records.append(RecordView(record))
      case .dropped(let marker, _): store.noteDropped(marker.count)
      }
    }
    store.append(contentsOf: records)
  }

  public func flush() {}
  public func close() {}
}
