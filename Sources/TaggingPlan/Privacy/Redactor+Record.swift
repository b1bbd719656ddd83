import TagscopeRecording

extension Redactor {
  /// `record` with its personal data replaced: its line redacted (``redact(line:)``) and read
  /// back; `nil` in the unexpected case where the redacted line does not read back.
  public mutating func redact(record: Record) -> Record? {
    try? RecordLineDecoder.decodeRecord(redact(line: RecordLineEncoder.line(record)))
  }
}
