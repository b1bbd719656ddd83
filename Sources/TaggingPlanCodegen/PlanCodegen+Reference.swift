import TaggingPlan

extension PlanCodegen {
  /// What each generated file holds, by name suffix (`NAME` is the module name), in the order
  /// ``files()`` writes them: `tagscope help codegen`'s table.
  public static let fileKinds: [(suffix: String, holds: String)] = [
    (
      "Taxonomy.swift",
      "one enum per kind of tag, a case per planned tag, a parameter per property; enums, structs, the format helper"
    ),
    ("Mappings.swift", "one mapping per provider the plan names, exactly the planned calls; providers(…)"),
    ("Calls.swift", "typed functions on an SDK adapter per catalogue call (catalogue-only or mixed plans)"),
    ("Tour.swift", "with --tour: every tag sent once with sample values, on the screens the plan names"),
  ]

  /// The provider parameters a generated mapping fills from the hub's context, by name (spelt in
  /// any case, with or without `_`), and what it reads.
  public static var contextParameters: [(name: String, reads: String)] {
    let names = [
      "source_screen", "screen", "screen_name", "current_screen", "from_screen", "previous_screen",
      "referrer_screen", "session_id", "user_id",
    ]
    return names.compactMap { name in ContextParameter.meaning(name).map { (name, $0) } }
  }

  /// The string formats generated code checks in debug builds (`date-time` and `uuid` are typed
  /// `Date` and `UUID` instead).
  public static var checkedFormats: [String] {
    ValueFormat.allCases.filter { FormatPatterns.checks($0) }.map(\.rawValue)
  }
}
