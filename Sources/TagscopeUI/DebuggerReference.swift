/// The debugger's own tables: its keys, its filter language and the marks of its Events list. The
/// help box (`?`) draws them and `tagscope help keys` / `tagscope help filter` print them, so what
/// the debugger shows and what its documentation says are one text.
public enum DebuggerReference {
  /// Every key of the Events list, with what it does (a test presses each printable key and
  /// checks that every key that does something is here).
  public static let keys: [(key: String, action: String)] = [
    (key: "q", action: "quit"),
    (key: "?", action: "this help (any key closes it)"),
    (key: "/", action: "filter the list (terms below; all must match); ↑↓ in it: earlier filters"),
    (key: "esc", action: "back: close, unzoom, clear the filter"),
    (key: "tab 1-4", action: "focus Events, Screens, Session, Providers"),
    (key: "j k ↑ ↓", action: "move the selection or scroll the focused pane"),
    (key: "PgUp PgDn", action: "a page"),
    (key: "g G", action: "first record / last record (G resumes following the live tail)"),
    (key: "enter", action: "the selected record in full (JSON, values escaped)"),
    (key: "z", action: "zoom the focused pane"),
    (key: "h l", action: "scroll provider columns"),
    (key: "[ ]", action: "previous / next record with violations"),
    (key: "space", action: "live: pause or follow · replay: play or pause at recorded speed"),
    (key: ". ,", action: "step one record forward / back"),
    (key: "← →", action: "replay: seek 10 s back / forward"),
    (key: "+ = - _", action: "replay speed: faster (+ or =), slower (- or _)"),
    (key: ":", action: "jump to a record number (42) or time from the start (3:12)"),
    (key: "e", action: "export the selected record to a new recording file (tab: an HTML session)"),
    (key: "E", action: "export the listed records (the filter's matches, or all; tab: an HTML session)"),
    (
      key: "m d",
      action: "mark the selected record; d compares the marked one with the selected, side by side"
    ),
    (
      key: "y", action: "copy the selected record's JSON to the clipboard (OSC 52; in tmux: set-clipboard on)"
    ),
    (key: "mouse", action: "click selects and focuses, wheel scrolls"),
    (key: "s", action: "listen: show one source after the other, then all (filter source:)"),
    (key: "S", action: "listen: the sources (devices) with counts and connection; enter shows one"),
    (
      key: "c",
      action: "with a plan: the coverage checklist by state (failing first); enter lists an item's records"
    ),
    (key: "v", action: "the selected record's violations: the plan's expectation beside what it carried"),
    (
      key: "a",
      action: "with --plan FILE: draft the selected tag's plan entry from its records; y adds it to FILE"
    ),
  ]

  /// The filter language: each term's key (as typed) with what it keeps.
  public static let filterTerms: [(term: String, meaning: String)] = [
    (term: "a b", meaning: "every term must match (AND); a bare word is a part of the name"),
    (term: "key:v", meaning: "exact (any case) · key~v a part of it · key~/re/ a regular expression"),
    (term: "kind:", meaning: "action (= userAction) screen event state timed session identify reset consent"),
    (term: "name:", meaning: "name:playPodcast · name~pod · /^play/"),
    (term: "screen:", meaning: "screen:favorites (the screen it happened on) · screen~fav"),
    (term: "provider:", meaning: "provider:firebase (with status: that provider's status) · provider~fire"),
    (term: "status:", meaning: "sent dropped blocked failed"),
    (term: "source:", meaning: "source:\"Podcasts@iPhone 15\" · source~iphone"),
    (term: "has:", meaning: "has:violations · has:violations:amplitude · has:issues"),
    (term: "rule:", meaning: "rule:wrong-name · rule:firebase.event-name-length · rule~name"),
    (
      term: "call:",
      meaning: "call:\"Order Completed\" · call:identify (a call's name or SDK method) · call~order"
    ),
    (
      term: "delivery:",
      meaning:
        "delivery:lost (a call in that state, listen) · delivered inFlight queued droppedBySDK refused noWireSource ambiguous"
    ),
    (
      term: "prop.",
      meaning: "prop.sku:A-1 (a tag property) · prop.title~night · prop.price>=10 (> >= < <= numbers)"
    ),
    (
      term: "param.",
      meaning: "param.value>10 (a parameter of any provider call) · param.currency:EUR · param.item~/^A-/"
    ),
    (term: "^U ^W", meaning: "ctrl-U clears the input · ctrl-W deletes its last word"),
  ]

  /// What the marks of the Events list mean (the help box adds the provider initials heading the
  /// status columns, which depend on the session).
  public static let legend: [(mark: String, meaning: String)] = [
    (mark: "▣ ◆ ◎ ◇", meaning: "screen · user action · event · state"),
    (mark: "◔ ◕", meaning: "timed event started · stopped"),
    (mark: "§ @ ↺ ⚑", meaning: "session start/update/end · identify · reset · consent"),
    (mark: "● · ⊘ ▲", meaning: "per provider: sent · dropped (mapping returned nothing) · blocked · failed"),
    (mark: "✗ ✗3", meaning: "violations: a provider rule or the plan broken (✗3: 3, each counted once)"),
    (mark: "!", meaning: "the hub reported an issue (not a violation)"),
  ]
}
