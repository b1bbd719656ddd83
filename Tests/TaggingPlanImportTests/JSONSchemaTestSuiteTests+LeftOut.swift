extension JSONSchemaTestSuiteTests {
  static let remoteRef = "needs a remote schema (a metaschema or another file): Tagscope never fetches"
  static let linearRegex =
    "format regex accepts what `pattern` runs in linear time: no backreferences, no lookaround"
  static let emptyClass = "`pattern`'s engine refuses the empty character classes [] and [^]"
  static let unevaluated = "unevaluatedProperties / annotation collection is not implemented"
  static let unicodeMode =
    "`pattern` reads \\p{…} as a Unicode property; ECMA-262 without the u flag reads a p"
  static let formatAsserts =
    "2020-12 makes format an annotation by default; a plan's format is checked (format-assertion)"
  static let idna =
    "IDNA2008 code point tables (RFC 5892 contexts and classes, RFC 5893 bidi) are not implemented: an xn-- label is checked as punycode, a non-ASCII label as letters, digits and marks"
  static let idRef =
    "$ref through $id, $anchor or a URN: only JSON-pointer fragments of the document (#/…) are resolved"
  static let recursiveRef = "a $ref back into itself is left unconstrained (a plan's rules are finite trees)"
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
    "draft7/format-hostname.json: validation of A-label (punycode) host names / contains illegal char U+302E Hangul single dot tone mark":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / Begins with a Spacing Combining Mark":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / Begins with a Nonspacing Mark":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / Begins with an Enclosing Mark":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / Exceptions that are DISALLOWED, right-to-left chars":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / Exceptions that are DISALLOWED, left-to-right chars":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / MIDDLE DOT with no preceding 'l'":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / MIDDLE DOT with nothing preceding":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / MIDDLE DOT with no following 'l'":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / MIDDLE DOT with nothing following":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / Greek KERAIA not followed by Greek":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / Greek KERAIA not followed by anything":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / Hebrew GERESH not preceded by Hebrew":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / Hebrew GERESH not preceded by anything":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / Hebrew GERSHAYIM not preceded by Hebrew":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / Hebrew GERSHAYIM not preceded by anything":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / KATAKANA MIDDLE DOT with no Hiragana, Katakana, or Han":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / KATAKANA MIDDLE DOT with no other characters":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / Arabic-Indic digits mixed with Extended Arabic-Indic digits":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / ZERO WIDTH JOINER not preceded by Virama":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / ZERO WIDTH JOINER not preceded by anything":
      idna,
    "draft7/format-hostname.json: validation of A-label (punycode) host names / contains \"--\" in the 3rd and 4th position":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / contains illegal char U+302E Hangul single dot tone mark":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / U-label contains \"--\" in the 3rd and 4th position":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / Begins with a Spacing Combining Mark":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / Exceptions that are PVALID, left-to-right chars":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / Exceptions that are PVALID, right-to-left chars":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / Exceptions that are DISALLOWED, right-to-left chars":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / Exceptions that are DISALLOWED, left-to-right chars":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / MIDDLE DOT with surrounding 'l's":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / Greek KERAIA followed by Greek":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / Hebrew GERESH preceded by Hebrew":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / Hebrew GERSHAYIM preceded by Hebrew":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / KATAKANA MIDDLE DOT with Hiragana":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / KATAKANA MIDDLE DOT with Katakana":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / KATAKANA MIDDLE DOT with Han":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / Arabic-Indic digits mixed with Extended Arabic-Indic digits":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / ZERO WIDTH JOINER preceded by Virama":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / zero width non-joiner must pass at every occurrence":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / Bidi domain name with a digit-first label is invalid":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / label starting with a digit before a right-to-left letter is invalid":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / left-to-right label containing a right-to-left letter is invalid":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / right-to-left label mixing both digit types is invalid":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / A-label that decodes to a disallowed code point is invalid":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / A-label that decodes to a Bidi rule violation is invalid":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / a U-label whose A-label form is longer than 63 octets is invalid":
      idna,
    "draft7/format-idn-hostname.json: validation of internationalized host names / non-canonical Punycode that does not re-encode to itself is invalid":
      idna,
    "draft7/ref.json: ref overrides any sibling keywords / ref valid, maxItems ignored": refSiblings,
    "draft7/ref.json: $ref prevents a sibling $id from changing the base uri / $ref resolves to /definitions/base_foo, data does not validate":
      idRef,
    "draft7/ref.json: remote ref, containing refs itself / remote ref invalid": remoteRef,
    "draft7/ref.json: Recursive references between schemas / invalid tree": recursiveRef,
    "draft7/ref.json: Location-independent identifier / mismatch": idRef,
    "draft7/ref.json: Reference an anchor with a non-relative URI / mismatch": idRef,
    "draft7/ref.json: Location-independent identifier with base URI change in subschema / mismatch": idRef,
    "draft7/ref.json: refs with relative uris and defs / invalid on inner field": idRef,
    "draft7/ref.json: refs with relative uris and defs / invalid on outer field": idRef,
    "draft7/ref.json: relative refs with absolute uris and defs / invalid on inner field": idRef,
    "draft7/ref.json: relative refs with absolute uris and defs / invalid on outer field": idRef,
    "draft7/ref.json: $id must be resolved against nearest parent, not just immediate parent / non-number is invalid":
      idRef,
    "draft7/ref.json: simple URN base URI with $ref via the URN / invalid under the URN IDed schema": idRef,
    "draft7/ref.json: URN base URI with URN and JSON pointer ref / a non-string is invalid": idRef,
    "draft7/ref.json: URN base URI with URN and anchor ref / a non-string is invalid": idRef,
    "draft7/ref.json: ref to if / a non-integer is invalid due to the $ref": idRef,
    "draft7/ref.json: ref to then / a non-integer is invalid due to the $ref": idRef,
    "draft7/ref.json: ref to else / a non-integer is invalid due to the $ref": idRef,
    "draft7/ref.json: ref with absolute-path-reference / an integer is invalid": idRef,
    "draft2020-12/defs.json: validate definition against metaschema / invalid definition schema": remoteRef,
    "draft2020-12/format-ecmascript-regex.json: ECMA 262 named groups and backreferences are valid / an ECMA 262 named backreference \\k<name>":
      linearRegex,
    "draft2020-12/format-ecmascript-regex.json: ECMA 262 lookbehind is valid, including variable width / a variable-width lookbehind (ES2018)":
      linearRegex,
    "draft2020-12/format-ecmascript-regex.json: ECMA 262 character classes and escapes / an empty character class is valid ECMA 262":
      emptyClass,
    "draft2020-12/format-ecmascript-regex.json: ECMA 262 character classes and escapes / a negated empty character class is valid ECMA 262":
      emptyClass,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / contains illegal char U+302E Hangul single dot tone mark":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / Begins with a Spacing Combining Mark":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / Begins with a Nonspacing Mark":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / Begins with an Enclosing Mark":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / Exceptions that are DISALLOWED, right-to-left chars":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / Exceptions that are DISALLOWED, left-to-right chars":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / MIDDLE DOT with no preceding 'l'":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / MIDDLE DOT with nothing preceding":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / MIDDLE DOT with no following 'l'":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / MIDDLE DOT with nothing following":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / Greek KERAIA not followed by Greek":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / Greek KERAIA not followed by anything":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / Hebrew GERESH not preceded by Hebrew":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / Hebrew GERESH not preceded by anything":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / Hebrew GERSHAYIM not preceded by Hebrew":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / Hebrew GERSHAYIM not preceded by anything":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / KATAKANA MIDDLE DOT with no Hiragana, Katakana, or Han":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / KATAKANA MIDDLE DOT with no other characters":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / Arabic-Indic digits mixed with Extended Arabic-Indic digits":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / ZERO WIDTH JOINER not preceded by Virama":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / ZERO WIDTH JOINER not preceded by anything":
      idna,
    "draft2020-12/format-hostname.json: validation of A-label (punycode) host names / contains \"--\" in the 3rd and 4th position":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / contains illegal char U+302E Hangul single dot tone mark":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / U-label contains \"--\" in the 3rd and 4th position":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / Begins with a Spacing Combining Mark":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / Exceptions that are PVALID, left-to-right chars":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / Exceptions that are PVALID, right-to-left chars":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / Exceptions that are DISALLOWED, right-to-left chars":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / Exceptions that are DISALLOWED, left-to-right chars":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / MIDDLE DOT with surrounding 'l's":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / Greek KERAIA followed by Greek":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / Hebrew GERESH preceded by Hebrew":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / Hebrew GERSHAYIM preceded by Hebrew":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / KATAKANA MIDDLE DOT with Hiragana":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / KATAKANA MIDDLE DOT with Katakana":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / KATAKANA MIDDLE DOT with Han":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / Arabic-Indic digits mixed with Extended Arabic-Indic digits":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / ZERO WIDTH JOINER preceded by Virama":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / zero width non-joiner must pass at every occurrence":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / Bidi domain name with a digit-first label is invalid":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / label starting with a digit before a right-to-left letter is invalid":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / left-to-right label containing a right-to-left letter is invalid":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / right-to-left label mixing both digit types is invalid":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / A-label that decodes to a disallowed code point is invalid":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / A-label that decodes to a Bidi rule violation is invalid":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / a U-label whose A-label form is longer than 63 octets is invalid":
      idna,
    "draft2020-12/format-idn-hostname.json: validation of internationalized host names / non-canonical Punycode that does not re-encode to itself is invalid":
      idna,
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
    "draft2020-12/not.json: collect annotations inside a 'not', even if collection is disabled / unevaluated property":
      unevaluated,
    "draft2020-12/pattern.json: pattern with Unicode property escape requires unicode mode / Digits do not match":
      unicodeMode,
    "draft2020-12/ref.json: remote ref, containing refs itself / remote ref invalid": remoteRef,
    "draft2020-12/ref.json: Recursive references between schemas / invalid tree": recursiveRef,
    "draft2020-12/ref.json: ref creates new scope when adjacent to keywords / referenced subschema doesn't see annotations from properties":
      unevaluated,
    "draft2020-12/ref.json: refs with relative uris and defs / invalid on inner field": idRef,
    "draft2020-12/ref.json: refs with relative uris and defs / invalid on outer field": idRef,
    "draft2020-12/ref.json: relative refs with absolute uris and defs / invalid on inner field": idRef,
    "draft2020-12/ref.json: relative refs with absolute uris and defs / invalid on outer field": idRef,
    "draft2020-12/ref.json: $id must be resolved against nearest parent, not just immediate parent / non-number is invalid":
      idRef,
    "draft2020-12/ref.json: order of evaluation: $id and $ref / data is invalid against first definition":
      idRef,
    "draft2020-12/ref.json: order of evaluation: $id and $anchor and $ref / data is invalid against first definition":
      idRef,
    "draft2020-12/ref.json: order of evaluation: $id and $ref on nested schema / data is invalid against nested sibling":
      idRef,
    "draft2020-12/ref.json: simple URN base URI with $ref via the URN / invalid under the URN IDed schema":
      idRef,
    "draft2020-12/ref.json: URN base URI with URN and JSON pointer ref / a non-string is invalid": idRef,
    "draft2020-12/ref.json: URN base URI with URN and anchor ref / a non-string is invalid": idRef,
    "draft2020-12/ref.json: URN ref with nested pointer ref / a non-string is invalid": idRef,
    "draft2020-12/ref.json: ref to if / a non-integer is invalid due to the $ref": idRef,
    "draft2020-12/ref.json: ref to then / a non-integer is invalid due to the $ref": idRef,
    "draft2020-12/ref.json: ref to else / a non-integer is invalid due to the $ref": idRef,
    "draft2020-12/ref.json: ref with absolute-path-reference / an integer is invalid": idRef,
  ]
}
