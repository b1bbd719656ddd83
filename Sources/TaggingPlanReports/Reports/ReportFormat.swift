import Foundation
import TaggingPlan

/// The output formats of `tagscope validate`.
public enum ReportFormat: String, Sendable, CaseIterable {
  case text
  case json
  case junit
  /// One self-contained HTML page (``HTMLReport``).
  case html

  /// The report rendered in this format; JUnit counts as failures the violations at or above
  /// `failOn`, HTML says whether the run fails at `failOn`.
  public func render(_ report: ValidationReport, failOn: Severity) -> String {
    switch self {
    case .text: return TextReport.render(report)
    case .json: return JSONReport.render(report)
    case .junit: return JUnitReport.render(report, failOn: failOn)
    case .html: return HTMLReport.render(report, failOn: failOn)
    }
  }

  /// Writes the report in this format to `handle`: what ``render(_:failOn:)`` returns, the JSON
  /// and text reports in chunks as they are written rather than built whole first.
  public func write(_ report: ValidationReport, failOn: Severity, to handle: FileHandle) throws {
    switch self {
    case .json: try JSONReport.write(report, to: handle)
    case .text: try TextReport.write(report, to: handle)
    case .junit, .html: try handle.write(contentsOf: Data(render(report, failOn: failOn).utf8))
    }
  }
}
