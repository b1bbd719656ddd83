import Foundation
import TaggingPlan

/// Reads JSON and YAML sources into ``SourceNode`` trees, every value with its line and column:
/// a document starting with `{` or `[` is read as JSON (``JSONDocumentReader``), falling back to
/// YAML for what only YAML accepts; anything else as YAML (``YAMLDocumentReader``).
public enum DocumentReader {
  /// The largest source read.
  public static let maximumBytes = 64 << 20
  /// How deeply arrays and objects (sequences and mappings) may nest.
  static let maximumDepth = 512

  /// The file at `path`, parsed.
  public static func read(path: String) throws(ImportError) -> SourceNode {
    try parse(try text(path: path), file: path)
  }

  /// The file at `path`, parsed, with what reading it let pass (``SourceDocument/readWarnings``).
  public static func document(path: String) throws(ImportError) -> SourceDocument {
    try ImportStack.run { () throws(ImportError) -> SourceDocument in
      try document(try text(path: path), file: path)
    }
  }

  /// The text of the file at `path` (UTF-8, at most ``maximumBytes``).
  static func text(path: String) throws(ImportError) -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      let reason = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
      throw ImportError(file: path, message: "cannot read the file: \(reason)")
    }
    defer { try? handle.close() }
    var data = Data()
    do {
      while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
        data.append(chunk)
        if data.count > maximumBytes {
          throw ImportError(file: path, message: "the file is larger than \(maximumBytes >> 20) MiB")
        }
      }
    } catch let error as ImportError {
      throw error
    } catch {
      throw ImportError(file: path, message: "cannot read the file: \(error.localizedDescription)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ImportError(file: path, message: "the file is not UTF-8 text")
    }
    return text
  }

  /// `text` (JSON or YAML) parsed; `file` names it in errors.
  public static func parse(_ text: String, file: String) throws(ImportError) -> SourceNode {
    try document(text, file: file).root
  }

  /// `text` (JSON or YAML) parsed, with what reading it let pass; `file` names it in errors and
  /// warnings.
  public static func document(_ text: String, file: String) throws(ImportError) -> SourceDocument {
    try ImportStack.run { () throws(ImportError) -> SourceDocument in try read(text, file: file) }
  }

  /// `text` parsed, on the caller's thread.
  private static func read(_ text: String, file: String) throws(ImportError) -> SourceDocument {
    let trimmed = text.drop { $0 == "\u{FEFF}" || $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard trimmed.first == "{" || trimmed.first == "[" else {
      var ordinals = KeyOrdinals()
      let root = try YAMLDocumentReader.read(text, file: file, ordinals: &ordinals)
      return SourceDocument(file: file, root: root, byteCount: text.utf8.count, ordinals: ordinals)
    }
    do {
      return try JSONDocumentReader.read(text, file: file)
    } catch {
      // JSON with YAML's liberties (comments, trailing commas, unquoted keys) still reads as YAML;
      // when it does not, the JSON reader's error is the one to show.
      var ordinals = KeyOrdinals()
      guard let root = try? YAMLDocumentReader.read(text, file: file, ordinals: &ordinals) else {
        throw error
      }
      return SourceDocument(file: file, root: root, byteCount: text.utf8.count, ordinals: ordinals)
    }
  }
}
