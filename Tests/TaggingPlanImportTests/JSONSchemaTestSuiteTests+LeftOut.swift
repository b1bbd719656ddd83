extension JSONSchemaTestSuiteTests {
  static let remoteRef =
    "needs a remote schema (a metaschema or a refRemote file such as tree.json): Tagscope never fetches"
  static let linearRegex =
    "format regex accepts what `pattern` runs in linear time: no backreferences, no lookaround"
  static let emptyClass = "`pattern`'s engine refuses the empty character classes [] and [^]"
  static let mergedRef =
    "the converter merges a $ref's target with its sibling keywords, so the target sees their annotations"
  static let unicodeMode =
    "`pattern` reads \\p{…} as a Unicode property; ECMA-262 without the u flag reads a p"
  static let formatAsserts =
    "2020-12 makes format an annotation by default; a plan's format is checked (format-assertion)"
  static let recursiveRef =
    "a $ref back into itself is followed once, deeper levels left unconstrained (a plan's rules are finite trees)"
  static let refSiblings =
    "draft-07 ignores $ref's siblings; the converter applies them, as 2019-09 and later do"

  /// Cases the plan does not judge as the suite says, each with its reason, by
  /// `draft/file: group / test`.
  static let leftOut: [String: String] = [
    "draft7/definitions.json: validate definition against metaschema / invalid definition schema": remoteRef,
    "draft7/format-ecmascript-regex.json: ECMA 262 named groups and backreferences are valid / an ECMA 262 named backreference \\k<name>":
      linearRegex,
    "draft7/format-ecmascript-regex.json: ECMA 262 lookbehind is valid, including variable width / a variable-width lookbehind (ES2018)":
      linearRegex,
    "draft7/format-ecmascript-regex.json: ECMA 262 character classes and escapes / an empty character class is valid ECMA 262":
      emptyClass,
    "draft7/format-ecmascript-regex.json: ECMA 262 character classes and escapes / a negated empty character class is valid ECMA 262":
      emptyClass,
    "draft7/ref.json: ref overrides any sibling keywords / ref valid, maxItems ignored": refSiblings,
    "draft7/ref.json: remote ref, containing refs itself / remote ref invalid": remoteRef,
    "draft7/ref.json: Recursive references between schemas / invalid tree": recursiveRef,
    "draft2020-12/defs.json: validate definition against metaschema / invalid definition schema": remoteRef,
    "draft2020-12/format-ecmascript-regex.json: ECMA 262 named groups and backreferences are valid / an ECMA 262 named backreference \\k<name>":
      linearRegex,
    "draft2020-12/format-ecmascript-regex.json: ECMA 262 lookbehind is valid, including variable width / a variable-width lookbehind (ES2018)":
      linearRegex,
    "draft2020-12/format-ecmascript-regex.json: ECMA 262 character classes and escapes / an empty character class is valid ECMA 262":
      emptyClass,
    "draft2020-12/format-ecmascript-regex.json: ECMA 262 character classes and escapes / a negated empty character class is valid ECMA 262":
      emptyClass,
    "draft2020-12/format.json: email format / invalid email string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: idn-email format / invalid idn-email string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: regex format / invalid regex string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: ipv4 format / invalid ipv4 string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: ipv6 format / invalid ipv6 string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: idn-hostname format / invalid idn-hostname string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: hostname format / invalid hostname string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: date format / invalid date string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: date-time format / invalid date-time string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: time format / invalid time string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: json-pointer format / invalid json-pointer string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: relative-json-pointer format / invalid relative-json-pointer string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: iri format / invalid iri string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: iri-reference format / invalid iri-reference string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: uri format / invalid uri string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: uri-reference format / invalid uri-reference string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: uri-template format / invalid uri-template string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: uuid format / invalid uuid string is only an annotation by default":
      formatAsserts,
    "draft2020-12/format.json: duration format / invalid duration string is only an annotation by default":
      formatAsserts,
    "draft2020-12/pattern.json: pattern with Unicode property escape requires unicode mode / Digits do not match":
      unicodeMode,
    "draft2020-12/ref.json: remote ref, containing refs itself / remote ref invalid": remoteRef,
    "draft2020-12/ref.json: Recursive references between schemas / invalid tree": recursiveRef,
    "draft2020-12/ref.json: ref creates new scope when adjacent to keywords / referenced subschema doesn't see annotations from properties":
      mergedRef,
    "draft2020-12/unevaluatedProperties.json: unevaluatedProperties + single cyclic ref / Unevaluated on 3rd level is invalid":
      recursiveRef,
    "draft2020-12/dynamicRef.json: strict-tree schema, guards against misspelled properties / instance with correct field":
      remoteRef,
    "draft2020-12/dynamicRef.json: tests for implementation dynamic anchor and reference link / incorrect parent schema":
      remoteRef,
    "draft2020-12/dynamicRef.json: tests for implementation dynamic anchor and reference link / incorrect extended schema":
      remoteRef,
    "draft2020-12/dynamicRef.json: $ref and $dynamicAnchor are independent of order - $defs first / incorrect parent schema":
      remoteRef,
    "draft2020-12/dynamicRef.json: $ref and $dynamicAnchor are independent of order - $defs first / incorrect extended schema":
      remoteRef,
    "draft2020-12/dynamicRef.json: $ref and $dynamicAnchor are independent of order - $ref first / incorrect parent schema":
      remoteRef,
    "draft2020-12/dynamicRef.json: $ref and $dynamicAnchor are independent of order - $ref first / incorrect extended schema":
      remoteRef,
    "draft2020-12/dynamicRef.json: $ref to $dynamicRef finds detached $dynamicAnchor / non-number is invalid":
      remoteRef,
    "draft2019-09/recursiveRef.json: $recursiveRef without using nesting / integer does not match as a property value":
      recursiveRef,
    "draft2019-09/recursiveRef.json: $recursiveRef without using nesting / two levels, no match":
      recursiveRef,
    "draft2019-09/recursiveRef.json: $recursiveRef with $recursiveAnchor: false works like $ref / integer does not match as a property value":
      recursiveRef,
    "draft2019-09/recursiveRef.json: $recursiveRef with $recursiveAnchor: false works like $ref / two levels, integer does not match as a property value":
      recursiveRef,
    "draft2019-09/recursiveRef.json: $recursiveRef with no $recursiveAnchor works like $ref / integer does not match as a property value":
      recursiveRef,
    "draft2019-09/recursiveRef.json: $recursiveRef with no $recursiveAnchor works like $ref / two levels, integer does not match as a property value":
      recursiveRef,
  ]
}
