import Foundation
import TaggingPlan
import TagscopeRecording

/// The delivery section of a validate report over a recording holding both the app's in-app
/// records and the SDKs' wire records (a `listen --record` recording): how many provider calls
/// ended in each delivery state, per provider, and each call that never reached its vendor
/// (lost, refused, ambiguous) with its record's place. Made by whoever runs the delivery ledger
/// over the recordings (the `tagscope` command); the reports only print it.
public struct DeliverySection: Sendable, Hashable {
  /// One call that did not reach its vendor.
  public struct Problem: Sendable, Hashable {
    /// The provider, the call's name (or method) and its state's word (`lost`).
    public var provider: String
    public var call: String
    public var state: String
    /// The vendor's status, for a refused call.
    public var status: Int?
    /// Why, as the ledger says it.
    public var reason: String?
    /// The in-app record's recording file, line and `seq`.
    public var file: String
    public var line: Int
    public var seq: UInt64

    /// A problem.
    public init(
      provider: String, call: String, state: String, status: Int? = nil, reason: String? = nil, file: String,
      line: Int, seq: UInt64
    ) {
      self.provider = provider
      self.call = call
      self.state = state
      self.status = status
      self.reason = reason
      self.file = file
      self.line = line
      self.seq = seq
    }
  }

  /// How many calls ended in one state.
  public struct StateCount: Sendable, Hashable {
    public var state: String
    public var count: Int

    /// A count.
    public init(state: String, count: Int) {
      self.state = state
      self.count = count
    }
  }

  /// One provider's counts.
  public struct ProviderCounts: Sendable, Hashable {
    public var provider: String
    public var counts: [StateCount]

    /// A provider's counts.
    public init(provider: String, counts: [StateCount]) {
      self.provider = provider
      self.counts = counts
    }
  }

  /// The count of calls in each state, in the ledger's order of states (every state, zeros too).
  public var counts: [StateCount]
  /// The same per provider, by provider name (states with calls only).
  public var providers: [ProviderCounts]
  /// The calls lost, refused or ambiguous, in recording order.
  public var problems: [Problem]
  /// Wire calls no in-app call explains (the SDKs' automatic events, or another code path).
  public var unexplained: Int
  /// Which reading of the vendors' answers was used: `true`, the recording's forward marks (a
  /// request the proxy forwarded is delivered or refused by its answer line, lost without one, as
  /// live); `false`, a recording without any (from before them, or with no proxy): every wire
  /// record taken as answered by `listen` itself.
  public var answersMarked = false

  /// A section.
  public init(
    counts: [StateCount], providers: [ProviderCounts], problems: [Problem], unexplained: Int
  ) {
    self.counts = counts
    self.providers = providers
    self.problems = problems
    self.unexplained = unexplained
  }

  /// Every call counted.
  public var total: Int { counts.reduce(0) { $0 + $1.count } }

  /// `7 calls · 5 delivered · 2 lost`: the states with calls.
  public var summary: String {
    ([CountWords.plural(total, "call")] + counts.filter { $0.count > 0 }.map { "\($0.count) \($0.state)" })
      .joined(separator: " · ")
  }

  /// `answers: …`: the reading of the vendors' answers used (``answersMarked``).
  public var answersLine: String {
    answersMarked
      ? "answers: as recorded (forwarded requests marked; one without an answer line is lost)"
      : "answers: every wire record taken as answered by listen (no forward marks in the recording)"
  }

  /// `file:line (seq N): provider call state[ status][: reason]`.
  public static func line(_ problem: Problem) -> String {
    var text = "\(problem.file):\(problem.line) (seq \(problem.seq)): \(problem.provider) \(problem.call) "
    text += problem.state + (problem.status.map { " \($0)" } ?? "")
    if let reason = problem.reason { text += ": " + reason }
    return text
  }
}

extension JSONReport {
  /// `{"counts":{state:n,…},"providers":{provider:{state:n,…},…},"unexplained":n,"answers":"recorded"|"listen","problems":[…]}`,
  /// each problem `{"file","line","seq","provider","call","state","status"?,"reason"?}`.
  static func write(_ delivery: DeliverySection, into out: inout JSONWriter) {
    out.object { out in
      out.key("counts", first: true)
      write(delivery.counts, into: &out)
      out.key("providers")
      out.object { out in
        for (index, provider) in delivery.providers.enumerated() {
          out.key(provider.provider, first: index == 0)
          write(provider.counts, into: &out)
        }
      }
      out.key("unexplained")
      out.int(delivery.unexplained)
      out.key("answers")
      out.string(delivery.answersMarked ? "recorded" : "listen")
      out.key("problems")
      out.array(delivery.problems) { out, problem in
        out.object { out in
          out.key("file", first: true)
          out.string(problem.file)
          out.key("line")
          out.int(problem.line)
          out.key("seq")
          out.int(Int(clamping: problem.seq))
          out.key("provider")
          out.string(problem.provider)
          out.key("call")
          out.string(problem.call)
          out.key("state")
          out.string(problem.state)
          if let status = problem.status {
            out.key("status")
            out.int(status)
          }
          if let reason = problem.reason {
            out.key("reason")
            out.string(reason)
          }
        }
      }
    }
  }

  private static func write(_ counts: [DeliverySection.StateCount], into out: inout JSONWriter) {
    out.object { out in
      for (index, entry) in counts.enumerated() {
        out.key(entry.state, first: index == 0)
        out.int(entry.count)
      }
    }
  }
}

extension HTMLReport {
  /// `<h2>Delivery</h2>`: the calls per state and provider, then each call sent by the app that
  /// never reached its vendor, at its place.
  static func delivery(_ delivery: DeliverySection, into out: inout String) {
    out += "<h2>Delivery <span class=\"muted\">(" + MarkupText.escape(delivery.summary) + ")</span></h2>\n"
    let states = delivery.counts.filter { $0.count > 0 }.map(\.state)
    out += "<table class=\"delivery\"><thead><tr><th>provider</th>"
    for state in states { out += "<th>" + MarkupText.escape(state) + "</th>" }
    out += "</tr></thead><tbody>\n"
    for provider in delivery.providers {
      out += "<tr><td>" + MarkupText.escape(provider.provider) + "</td>"
      for state in states {
        out += "<td class=\"num\">\(provider.counts.first { $0.state == state }?.count ?? 0)</td>"
      }
      out += "</tr>\n"
    }
    out += "</tbody></table>\n"
    if delivery.unexplained > 0 {
      out += "<p class=\"muted\">\(delivery.unexplained) wire calls no in-app call explains.</p>\n"
    }
    out += "<p class=\"muted\">" + MarkupText.escape(delivery.answersLine) + "</p>\n"
    guard !delivery.problems.isEmpty else { return }
    out += "<h3>Sent by the app, never reached the vendor</h3>\n<ul>\n"
    for problem in delivery.problems.prefix(problemsListed) {
      out +=
        "<li><code class=\"where\">" + MarkupText.escape(DeliverySection.line(problem)) + "</code></li>\n"
    }
    if delivery.problems.count > problemsListed {
      out += "<li class=\"muted\">… and \(delivery.problems.count - problemsListed) more</li>\n"
    }
    out += "</ul>\n"
  }
}

extension JUnitReport {
  /// `<property name="delivery" value="7 calls · 5 delivered · 2 lost"/>`.
  static func property(_ delivery: DeliverySection) -> String {
    "<property name=\"delivery\" value=\"" + MarkupText.escape(delivery.summary) + "\"/>"
  }

  /// The suite's `<system-out>`: each call sent by the app that never reached its vendor, at its
  /// place (not a failure: delivery does not decide the run).
  static func systemOut(_ delivery: DeliverySection) -> String {
    let lines = ["sent by the app, never reached the vendor:"] + delivery.problems.map(DeliverySection.line)
    return "<system-out>" + MarkupText.escape(lines.joined(separator: "\n")) + "</system-out>"
  }
}
