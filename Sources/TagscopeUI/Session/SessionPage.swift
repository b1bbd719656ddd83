import Foundation
import TaggingPlan
import TagscopeRecording

/// A recording as one self-contained HTML page (`tagscope export --html`, the debugger's `e`):
/// the event stream with its marks, a filter, the screens and session as of the selected record,
/// each provider's calls side by side with their violations and expected vs got, with the
/// debugger's keys. No network access: the styles, the script and the data are inline, and the
/// data is drawn with `textContent` only (the title too: no value is markup-escaped into the
/// page), in a list that keeps only its visible rows in the page.
public enum SessionPage {
  /// The page of the records at `positions` of `source` (every record when `nil`); `notes` are
  /// shown under the header (lines the recording's reader skipped, with their place). With
  /// `salt`, personal data is replaced by salted hashes (``Redactor``): in each record (its keys
  /// naming what their values are), then in every text the page holds (states, findings, notes).
  public static func html(
    from source: any TimelineSource, positions: [Int]? = nil, notes: [String] = [],
    redactingWith salt: String? = nil
  ) -> String {
    let info = source.info
    let chosen = positions ?? Array(0..<source.count)
    var redactor = salt.map { Redactor(salt: $0) }
    let data = SessionData(source: source, positions: chosen, providers: info.providers, redactor: &redactor)
    let q = SessionData.quoted
    var json = "{\"v\":1,\"app\":" + q(info.appName) + ",\"label\":" + q(info.sourceLabel)
    json += ",\"plan\":" + (info.planSummary.map(q) ?? "null")
    json += ",\"providers\":[" + info.providers.map(q).joined(separator: ",") + "]"
    json += ",\"notes\":[" + (notes + data.unreadable).map(q).joined(separator: ",") + "]"
    json += ",\"t0\":\(data.start ?? 0),\"w\":\(SessionData.rowWidth)"
    json += ",\"s\":[" + data.strings.joined(separator: ",") + "]"
    json += ",\"r\":[" + data.rows.map(String.init).joined(separator: ",") + "]"
    json += ",\"st\":[" + data.states.joined(separator: ",") + "]"
    json += ",\"d\":[" + data.details.joined(separator: ",") + "]}"
    if var redactor { json = redactor.redact(line: json) }
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; \
      script-src 'unsafe-inline'">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>tagscope session</title>
      <style>\(SessionPageAssets.style)</style>
      </head>
      <body>
      \(SessionPageAssets.body)
      <script type="application/json" id="tagscope-data">\(json)</script>
      <script>\(SessionPageAssets.script)</script>
      </body>
      </html>

      """
  }

  /// Writes ``html(from:positions:notes:)`` to `path` as a command writes its files: a new file,
  /// or an existing regular file only when `replacing`; returns how many records it holds.
  package static func write(
    from source: any TimelineSource, positions: [Int]? = nil, notes: [String] = [], to path: String,
    replacing: Bool, redactingWith salt: String? = nil
  ) throws(OutputFile.Refusal) -> Int {
    try OutputFile.check(path, replacing: replacing)
    let page = html(from: source, positions: positions, notes: notes, redactingWith: salt)
    try OutputFile.write(Data(page.utf8), to: path, replacing: replacing)
    return positions?.count ?? source.count
  }
}
