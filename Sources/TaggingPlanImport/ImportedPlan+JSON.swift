import TagscopeRecording

extension ImportedPlan {
  /// What the import read and what it did not carry, as one JSON object (`plan import --json`):
  /// `{"plan", "format", "evidence", "sources", "keys": {"keys", "carried", "reported"},
  /// "warnings": [{"file", "line", "column", "path", "message"}]}`.
  public var reportJSON: String {
    JSONWriter.string(capacity: 256 + warnings.count * 160, pretty: true) { writer in
      writer.object { writer in
        writer.key("plan", first: true)
        writer.string(name)
        writer.key("format")
        writer.string(format.rawValue)
        writer.key("evidence")
        writer.string(orNull: evidence?.description)
        writer.key("sources")
        writer.stringArray(sources)
        writer.key("keys")
        writer.object { writer in
          writer.key("keys", first: true)
          writer.int(keys.keys)
          writer.key("carried")
          writer.int(keys.carried)
          writer.key("reported")
          writer.int(keys.reported)
        }
        writer.key("warnings")
        writer.array(warnings) { writer, warning in
          writer.object { writer in
            writer.key("file", first: true)
            writer.string(warning.file)
            writer.key("line")
            writer.int(warning.location.line)
            writer.key("column")
            writer.int(warning.location.column)
            writer.key("path")
            writer.string(warning.path.description)
            writer.key("message")
            writer.string(warning.message)
          }
        }
      }
    }
  }
}
