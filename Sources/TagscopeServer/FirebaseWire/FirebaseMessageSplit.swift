/// One message of an upload's wire bytes split, without building it, into the children a lazy
/// decoder builds one at a time (two length-delimited fields: a bundle's events and user
/// properties, a batch's bundles) and the rest of its fields, as written and in order, which
/// decode as the message itself without those children. SwiftProtobuf decodes the rest exactly as
/// it decodes the whole: a child field of another wire type stays in the rest (kept as unknown), a
/// group is copied whole to its end (children inside it are the group's, not the message's), and
/// bytes that stop being protobuf are copied to the end so that decoding the rest refuses them.
struct FirebaseMessageSplit {
  /// The message's fields other than the children, as written.
  private(set) var rest: [UInt8] = []
  /// Where each child of the first field number is, in order.
  private(set) var first: [Range<Int>] = []
  /// Where each child of the second field number is, in order.
  private(set) var second: [Range<Int>] = []

  /// Splits `range` of `bytes` into the children of field numbers `children` (the second, if
  /// any) and, unless `rest` is `false`, the rest.
  init(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, children: (UInt64, UInt64?), rest: Bool = true
  ) {
    var reader = ProtobufWireReader(bytes, range: range)
    while true {
      let start = reader.offset
      let field: ProtobufWireReader.Field
      do throws(ProtobufWireReader.Failure) {
        guard let next = try reader.next() else { return }
        field = next
      } catch {
        if rest { self.rest += bytes[start..<range.upperBound] }
        return
      }
      switch field.value {
      case .lengthDelimited(let child) where field.number == children.0: first.append(child)
      case .lengthDelimited(let child) where field.number == children.1: second.append(child)
      case .group:
        do throws(ProtobufWireReader.Failure) {
          try reader.skipGroup()
        } catch {
          if rest { self.rest += bytes[start..<range.upperBound] }
          return
        }
        if rest { self.rest += bytes[start..<reader.offset] }
      default: if rest { self.rest += bytes[start..<reader.offset] }
      }
    }
  }
}
