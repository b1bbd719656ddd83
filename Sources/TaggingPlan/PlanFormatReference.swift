import TagscopeVendors

/// The reference of the tagging plan format, for QA engineers: every key ``PlanLoader`` accepts,
/// every constraint and an example per section.
///
/// One text, two forms: ``markdown`` (fenced `yaml` examples), and ``text``, what `tagscope help
/// plan` prints (the same words, code blocks indented instead of fenced), to which README links. A
/// test checks that every key the loader accepts is named here and that each example loads.
public enum PlanFormatReference {
  /// The reference as Markdown (fenced `yaml` examples).
  public static let markdown: String = """
    A tagging plan is one YAML file (UTF-8) saying which tag must reach which provider with which
    parameters. `tagscope demo --print-plan` prints a complete one. Loading is all or nothing: a YAML
    error, an unknown key, a value of the wrong kind, an invalid pattern, a duplicate key or an unknown
    screen name stops with one message `file:line:column: …` and no part of the plan is used. Keys
    are case-sensitive. Anchors and aliases (`&podcast`, `*podcast`) share definitions between
    entries; what the aliases expand to is bounded (ten nodes per byte of the plan, at least 10 000),
    so aliases of aliases that would expand past it stop with `file:line:column: YAML aliases expand…`
    (as they do in every YAML file `plan import` reads).

    ### Top level

    ```yaml
    plan: Podcasts                  # required
    version: 3
    description: Podcast app tagging plan
    unplanned: warning
    screens: {}                     # the sections: screens, actions, events, states, timed
    actions: {}
    catalogues: {}                  # the calls each provider receives
    funnels: {}                     # tags that must come in order (see Journeys)
    privacy: {allow: [ip]}          # or privacy: off
    consent: {}                     # the providers of each consent category (see Consent)
    ```

    - `plan` (required): the plan's name, shown in reports and in the debugger's header.
    - `version`: any text (`3`, `2026.11`), shown after the name (`Podcasts v3`).
    - `description`: free text, not checked.
    - `unplanned`: the severity of `unplanned-tag`, `error` (the default) or `warning`.
    - `screens`, `actions`, `events`, `states`, `timed`: the sections, one per kind of tag the app
      sends (`send(screen:)`, `send(userAction:)`, `send(event:)`, `send(state:)`,
      `start`/`stop`/`cancel(timedEvent:)`). Each maps a tag name to its entry and may be empty. A
      screen, action, event or state the plan does not list is `unplanned-tag`; timed events are
      checked only when the plan has a `timed` section. Sessions, identify, reset and consent are
      never checked against the plan.
    - `catalogues`: per provider, the catalogue of the calls it receives (see Provider call
      catalogues). A plan with catalogues and no section checks calls only, not the app's tags.
    - `customProviders`: a list of provider ids Tagscope does not know (an in-house SDK) that the
      plan names on purpose. Any other provider id (under an entry's `providers` or in
      `catalogues`) must be one Tagscope knows, or one of its aliases (`ga4`, `appboy`): a typo
      (`amplitdue`) fails the load, with the nearest known id.
    - `funnels`: named funnels, tags that must come in order within a session (see Journeys).
    - `privacy`: the personal-data check (see `pii` under Property constraints) for the whole plan:
      `off` (no value is scanned, no `personal-data` finding) or `on` (the default), or a mapping
      with `scan` (`on` or `off`) and `allow`, a kind or a list of kinds (`email`, `phone`, `adid`,
      `ip`, `card`, `geo`, `token`) allowed in every value; the other kinds are still reported where
      no property's `pii` allows them.
    - `consent`: the providers of each consent category and what applies before any decision; calls
      made without consent are reported (see Consent).

    ### Entries

    An entry is a tag name with nothing after it (the tag is planned, nothing else is checked) or a
    mapping of:

    - `description`: free text, not checked.
    - `severity`: `error` (the default) or `warning`, for every violation of this entry.
    - `properties`: the tag's properties and their constraints (see Property constraints). Without
      `properties` the tag's properties are not checked; `properties: {}` (or nothing) means the tag
      carries none. A property the entry does not list is `unexpected-property` (a timed stop may
      also carry the hub's `duration` and `cancelled`).
    - `screens` (not in the `screens` section): one screen or a list; the tag may only happen while
      one of them is the current screen, else `wrong-screen`.
    - `providers`: what each provider must receive, by provider id (`firebase`, `amplitude`, `piano`,
      `braze`, `fpti`, `segment`, `mixpanel`…; see Provider expectations). A provider the entry does
      not name is not checked.
    - `after`, `once`, `duplicateWithin`: journey rules, what came before the tag in its session and
      how often it may be sent (see Journeys).

    When the plan has a `screens` section, every screen named in `screens` and in `when: {screen: …}`
    must be one of its entries (a typo would silently never match).

    ### Property constraints

    Constraints use JSON Schema's words (draft 7 and 2020-12). A property is a name with nothing
    after it (allowed, any value) or a mapping of the keywords below. Where a keyword takes
    *constraints*, they are a mapping of the same words, nested (`{}` allows any value, `{not: {}}`
    none).

    - `type`: `string`, `integer`, `number`, `boolean`, `array`, `object` or `null`, or a list of them
      (any of them). A whole number counts as `integer`, an integer as `number`, a date as `string`.
      Another type is `wrong-type`.
    - `required`: `true` or `false` (the default). A required property that is absent is
      `missing-property`; so is a null one whose `type` does not list `null`. A required property
      whose `type` lists `null`, or that has no `type`, takes an explicit null. A null property whose
      `type` does not list `null` counts as absent.
    - `enum`: a list of the allowed values; `const`: the one allowed value. Values may be lists and
      mappings, compared deeply; numbers compare by value (`1830` equals `1830.0`).
    - `pattern`: a regular expression searched anywhere in a string value (JSON Schema's `pattern`,
      ECMA-262 without backreferences and lookaround); `^…$` matches the whole value. It is matched
      in time linear in the value whatever its shape, and may expand to at most 1,000 steps (`x{n}`
      counts `x` n times): a larger pattern is refused at its line. A character of the value costs
      at most one pass over those steps, 64 at a time: about 1.5 µs of CPU for the worst pattern
      found (about 0.15 s for a 100 KB value), a few nanoseconds for a typical one. Its lookup
      tables take at most about 3 MiB (2 MiB of DFA states, 1 MiB of closures; past that it steps
      without them, slower but still linear), and the patterns of the debugger's and `wait`'s
      filters share at most 64 MiB, the least recently used evicted.
    - `minimum`, `maximum`: inclusive bounds of a number; `exclusiveMinimum`, `exclusiveMaximum`:
      exclusive bounds; `multipleOf`: a number above 0 the value is a whole multiple of.
    - `minLength`, `maxLength`: inclusive bounds of a string's length in Unicode code points
      (non-negative integers).
    - `format`: a string format, checked: `date-time`, `date`, `time` (RFC 3339, with an offset),
      `duration`, `email`, `idn-email`, `hostname`, `idn-hostname` (IDNA2008's rules, its code point
      tables approximated by Unicode categories), `ipv4`, `ipv6`, `uri`, `uri-reference`, `iri`,
      `iri-reference`, `uuid`, `uri-template`, `json-pointer`, `relative-json-pointer` or `regex` (what
      `pattern` accepts).
    - `properties`: for an object value, its keys and their constraints. A required key that is
      missing is `missing-property` (`missing-param` in a parameter), named by its path
      (`cart.items[2].price`).
    - `patternProperties`: a mapping of regular expressions to constraints, for the keys they match.
    - `additionalProperties`: for the keys neither `properties` nor `patternProperties` name: `false`
      makes each `unexpected-property`, constraints check their values; `true` allows them, as leaving
      it out does, and (as in JSON Schema) counts them evaluated for `unevaluatedProperties`.
    - `propertyNames`: constraints every key meets, as a string; `minProperties`, `maxProperties`:
      inclusive bounds of the number of keys.
    - `unevaluatedProperties`: constraints (or `false`) for the keys that neither this object's
      `properties`, `patternProperties` and `additionalProperties` nor the subschemas it meets
      (`allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`, `dependentSchemas`) name; `unevaluatedItems`:
      the same for an array's elements (those `prefixItems`, `items` and `contains` evaluate).
    - `dependentRequired`: a mapping of a key to the keys that must be present with it;
      `dependentSchemas`: a mapping of a key to constraints the whole object meets when it has it.
    - `items`: for an array value, the constraints every element meets (after those `prefixItems`
      lists); `prefixItems`: a list of constraints for the first elements, by position. An element is
      named by its index (`products[1]`).
    - `minItems`, `maxItems`: inclusive bounds of an array's length; `uniqueItems`: `true` makes
      any two equal elements invalid; `contains`: constraints that at least `minContains` (default 1) and at most
      `maxContains` elements meet.
    - `allOf`, `anyOf`, `oneOf`: lists of constraints the value meets all of, at least one of,
      exactly one of; `not`: constraints the value must not meet; `if`, `then`, `else`: when the
      value meets `if`, it must meet `then`, else `else`.
    - `description`: free text, not checked.
    - `pii`: the personal data the property (or parameter, and what it holds) is meant to carry:
      `allowed` (any), `none`, or some of `email`, `phone`, `adid`, `ip`, `card`, `geo`, `token`.
      Every value a provider receives is scanned (all records, lifecycle ones included; a parameter
      with an exact planned value is allowed), an SDK batch's own fields too (mParticle's
      `user_identities`, `ui`: allowed by `pii` in the catalogue's `batch` entry); what is found
      elsewhere is `personal-data`. Detectors:
      email addresses; phone numbers (E.164 `+…`, North American `(212) 555-0143`, national with a
      trunk 0 in groups `06 12 34 56 78`, any 8 to 15 digits under a phone key); advertising ids (a
      UUID under an idfa/gaid/adid/rdid/advertising-id key, Firebase's
      `resettable_device_id`, or right after one; other UUIDs are not); IPv4 and
      IPv6 addresses (not loopback); card numbers (a card range, Luhn); latitude/longitude pairs
      with 4 or more decimals (in one string, or two keys of one object); JWTs, `Bearer` and `Basic`
      credentials. `tagscope redact` replaces the same finds by salted hashes. On values that are
      not personal data the detectors flag \(PIIFalsePositiveFigures.sentence) (the test
      measuring this fails when the figure changes). A `format` allows its own kind without `pii`,
      in `if`/`then`/`else` branches too: `email` and `idn-email` an email address, `ipv4` and
      `ipv6` an IP address. Reports never print what a detector finds: a message or report that
      quotes such a value (`invalid-value`, the JSON `actual`) shows `<email masked, 20
      characters>` instead; the recording keeps it (`tagscope redact` makes a copy without).
      `plan import` writes `pii` where the source declares personal data (of the formats it reads,
      only mParticle does): each identity of a `user_identities` data point is marked with
      what its type holds (`ios_idfa`, `android_aaid`, `roku_aid`, `fire_aid`, `microsoft_aid`:
      `adid`; `email`: `email`; `mobile_number`, `phone_number_2`, `phone_number_3`: `phone`;
      customer, social, `other` and device ids none, as no detector finds them), and an identity
      of no known type is imported unmarked with a warning naming its place.

    A value breaking any keyword but `type` and `required` is `invalid-value`, the message naming the
    value and the keyword (`is 7, plan line 12 expects a multiple of 5`). `format`, `pattern` and the
    lengths apply to strings, the bounds and `multipleOf` to numbers, the object keywords to objects,
    the array keywords to arrays. At most 20 problems are reported inside one value. `tagscope plan
    import` carries these keywords from JSON Schema (draft-04 to 2020-12: `definitions`, draft-07
    `dependencies` and tuple `items` with `additionalItems` included; `$ref`s within the document
    resolved: JSON pointers, `$id` base URIs, `$anchor`, `$dynamicRef` with `$dynamicAnchor`; a
    `$ref` back into itself is followed once, deeper levels unchecked; a remote `$ref` is warned
    about and never fetched).

    ```yaml
    properties:
      podcast_id: {type: string, required: true, pattern: "^p[0-9]+$"}
      podcast_title: {type: string, required: true, minLength: 1, maxLength: 100}
      podcast_duration: {type: integer, minimum: 0, maximum: 86400, multipleOf: 5}
      quality: {type: string, enum: [low, high], description: the stream's quality}
      rating: {type: [integer, "null"], required: true}
      tags: {type: array, items: {type: string}, uniqueItems: true, maxItems: 10}
      released_at: {type: string, format: date-time}
      host: {oneOf: [{type: string, format: hostname}, {type: string, format: ipv4}]}
      cart:
        type: object
        additionalProperties: false
        properties:
          currency: {const: EUR}
          items: {type: array, minItems: 1, items: {type: object, properties: {price: {type: number, required: true}}}}
    ```

    ### Provider expectations

    Under `providers`, each provider id maps to one of:

    - `none`: the provider must receive no call; a call is `unexpected-call`.
    - a call: a mapping of the keys below.
    - a list of calls: the calls whose `when` holds apply; when none holds, the calls without `when`
      apply; when none applies, the provider is not checked for that tag. A list cannot be empty.

    The keys of a call:

    - `name`: the event, screen or property name the SDK is given (`play_podcast_from_favorites`).
      When no call the provider received has it, `wrong-name`.
    - `method`: the SDK method (`logEvent`, `setUserProperty`, `track`, `identify`,
      `logCustomEvent`, `setCustomAttribute`…); when given, the call must have it too. A call needs a
      `name`, a `method` or both, unless it is `none: true`.
    - `params`: the call's parameters, either a list of names that must be present
      (`params: [podcast_title, podcast_duration]`) or a mapping of each name to an expected value
      (`screen_name: show_podcasts`; another value is `invalid-value`), to constraints (the keys of
      Property constraints: `{type: string, maxLength: 100}`) or to nothing (present, any value). A
      planned parameter the call lacks is `missing-param`; parameters the plan does not name are
      allowed.
    - `when`: when the call applies: `screen`, one screen or a list (the current screen), and, in the
      `timed` section only, `phase`: `start`, `stop` or `cancel` (a stop with `cancelled: true`).
    - `none`: `true` (and only true): the provider must receive nothing (in a list: under this
      call's `when`). It cannot be combined with `name`, `method` or `params`.
    - `description`: free text, not checked.

    A provider is checked only when the tag's record has an outcome for it (a record from
    `tagscope listen` carries only the SDK that sent it). `blocked` (the provider is disabled or has
    no consent) is expected: nothing is checked and it does not count as coverage. `dropped` (the
    mapping returned nothing) and `failed` (the SDK threw) are `missing-call` where a call is
    planned. Every call is also checked against its provider's documented rules (`provider-rule`),
    whether or not the plan names the provider.

    ### screens

    ```yaml
    screens:
      podcasts:
        properties: {}              # the screen tag carries no property
        providers:
          firebase: {name: screen_view, params: {screen_name: show_podcasts, screen_class: PodcastsViewController}}
          amplitude: {name: Screen Viewed, params: {screen: podcasts}}
          braze: none
      favorites:
        providers:
          firebase: {name: screen_view, params: {screen_name: show_favorites}}
      podcastPlayer:                # planned, nothing else checked
    ```

    ### actions

    ```yaml
    actions:
      playPodcast:
        description: the user taps play
        properties: &podcast
          podcast_id: {type: string, required: true, pattern: "^p[0-9]+$"}
          podcast_title: {type: string, required: true, maxLength: 100}
          podcast_duration: {type: integer, required: true, minimum: 0}
        screens: [podcasts, favorites]    # the only screens it may happen on
        providers:
          firebase:                       # conditional calls, then the fallback
            - {when: {screen: favorites}, name: play_podcast_from_favorites, params: [podcast_title, podcast_duration]}
            - {name: play_podcast, params: {podcast_title: {type: string, maxLength: 100}, source: app}}
          amplitude: {method: track, name: Play Podcast, params: [podcast_title]}
          braze:
            - {when: {screen: favorites}, none: true}
            - {method: logCustomEvent, name: podcast_played}
          piano: none                     # must receive nothing
      pausePodcast:
        severity: warning
        properties: *podcast
    ```

    ### events

    ```yaml
    events:
      playerDidFail:
        severity: warning
        properties:
          podcast_id: {type: string, required: true}
          error: {type: string, required: true, enum: [network, decoding, timeout]}
        providers:
          firebase: {name: player_error, params: {error: null, podcast_id: {pattern: "^p[0-9]+$"}}}
          piano: none
      playerDidLoad:
    ```

    ### states

    ```yaml
    states:
      autoPlay:
        properties: {value: {type: boolean, required: true}}
        providers:
          firebase: {method: setUserProperty, name: autoplay_enabled, params: {value: {enum: ["true", "false"]}}}
          amplitude: {method: identify, params: [autoplay]}
          braze: {method: setCustomAttribute, name: autoplay}
    ```

    ### timed

    A timed event's start, stop and cancel are three records of one entry; `when: {phase: …}` tells
    them apart, and a stop carries the hub's `duration` (seconds; a cancel also `cancelled: true`),
    which `properties` need not list.

    ```yaml
    timed:
      listening:
        properties:
          podcast_title: {type: string, required: true}
        providers:
          firebase:
            - {when: {phase: start}, name: listening_start, params: [podcast_title]}
            - {when: {phase: stop}, name: listening_stop, params: {duration: {type: number, minimum: 0}}}
            - {when: {phase: cancel}, name: listening_cancel, params: [duration]}
          amplitude: {name: Listening}
    ```

    ### Provider call catalogues

    Tracking-plan tools (Segment Protocols, RudderStack, Snowplow's Iglu, mParticle, Avo, Amplitude
    Data) describe the calls one destination receives: a call name and its parameters' schema.
    `catalogues` holds that, per provider id, and checks every call of that provider in every
    record, in-app or sent by an SDK to `tagscope listen`, whatever the tag (`tagscope plan import`
    writes catalogues from those tools' files). A catalogue is a mapping of:

    - `unplanned`: what a call no entry matches is: `error` (the default) or `warning`
      (`unplanned-call` with that severity), or `allowed` (not reported).
    - `propertiesAt`: where a message an SDK sent holds what the entries' `params` describe, as
      keys joined by dots, or `.` for the whole message (the default); entries that do not give
      their own follow it. An SDK's messages hold an event's properties here:
      \(Vendors.propertiesPlaces()).
      Others: `traits`, `unstruct_event.data.data`.
    - `entitiesAt`: where a call holds a list of self-describing entities, `{schema, data}` each
      (Snowplow's context entities: `contexts.data`): each entity's `data` is checked against the
      entry named by its `schema`, as that entry's `params` (violations name
      `contexts.data[iglu:…/1-0-0].field`), and covers that entry; an entity no entry names is
      `unplanned-call` as the catalogue's `unplanned` says.
    - `valuesAsText`: `true` when the SDKs send every parameter value as text (mParticle's iOS and
      Android SDKs: `tagscope plan import` sets it for mParticle plans): in a call an SDK sent, a
      text value whose parameter accepts a number, integer or boolean but not a string is read as
      that value when it is its canonical text (`"12.5"`, `"3"`, `"true"`), then checked; other
      text stays text (`"abc"` for a number is `wrong-type`; a string parameter's `"1"` is `"1"`).
      `false` by default.
    - `calls`: entries by call name (the event, screen or property name the SDK is given). A name
      ending in a SchemaVer (`iglu:com.acme/add_to_cart/jsonschema/1-0-2`) the catalogue lacks
      is checked against the newest version of the same name it has, and its violations say so.
    - `methods`: entries by SDK method (`identify`, `group`), for the calls no `calls` entry
      matches; the key is the method. The method `batch` checks the fields a batch of calls
      carries beside its calls, which a recording keeps on the batch's first record (its output's
      `batch`: an mParticle batch's `user_attributes` and `user_identities`, a mobile SDK's `ua`
      and `ui`): once per batch, as that entry's `params` (`propertiesAt: .`), violations naming
      the batch's own key (`ua.age`, `ui[1]`) on that record.
    - `description`: free text, not checked.

    An entry is a name with nothing after it (planned, parameters unchecked) or a mapping of:

    - `method` (`calls` entries only): the SDK method the call must have too (`track`).
    - `params`: the call's parameters and their constraints (the keys of Property constraints,
      nested objects and arrays included), or a list of names that must be present. A required
      parameter that is absent or null is `missing-param`; violations name the parameter's path
      (`properties.products[2].price`).
    - `additionalProperties`: `false` makes a parameter `params` does not list
      `unexpected-property`; `true` (the default) allows it, as SDK payloads carry bookkeeping
      fields (`messageId`, `context`…). In a call an SDK sent, the properties its SDK adds
      itself among the app's are not unexpected unless `params` lists them, so the app's call and
      the SDK's judge alike: \(Vendors.sdkPropertiesSummary).
    - `severity`: `error` (the default) or `warning`, for this entry's violations.
    - `propertiesAt`: this entry's own path (see above): `identify: {propertiesAt: traits}`.
    - `messageParams`: constraints on the whole message a call from an SDK carries, whatever
      `propertiesAt` says, as `params` (Segment's common rules on `context`:
      `messageParams: {context: {type: object, properties: {userAgent: {type: string}}}}`);
      violations name the path (`context.userAgent`); in-app calls carry no message and skip them.
    - The rarer keywords of Property constraints (`anyOf`, `oneOf`, `allOf`, `not`, `if`/`then`/
      `else`, `patternProperties`, `dependentRequired`, `minProperties`…) apply to the parameters
      as one object (`anyOf: [{properties: {a: {required: true}}}, {properties: {b: {required: true}}}]`);
      an import writes an event schema's own keywords here.
    - `description`: free text, not checked.

    A call from `listen` carries the SDK's whole message as its parameters (Segment's `properties`,
    `context` and `traits` are parameters); an in-app call carries what the mapping gave the SDK.
    With `propertiesAt`, one entry checks both: a message from an SDK at that path (a message
    without it has none of the required parameters; violations name the path,
    `properties.revenue`), an in-app call on its parameters.
    `listen` names a Snowplow self-describing event's call after the schema the event names
    (`unstruct_event.data.schema`, `iglu:vendor/name/jsonschema/1-0-0`), so an Iglu registry
    imports as one `calls` entry per version of each `vendor/name`, with
    `propertiesAt: unstruct_event.data.data` and `entitiesAt: contexts.data`; the record keeps the
    name people read (`add_to_cart`, or the screen's name for a `screen_view`). The tracker's page
    views, page pings and structured events (`trackPageView`, `trackPagePing`, `trackStructEvent`)
    have no Iglu schema: the import plans them as `methods` entries on the tracker protocol's
    fields (`propertiesAt: .`).
    `blocked` outputs are not checked. Each entry is a coverage item
    (`segment call Order Completed`, `segment method identify`), seen when a call matched it.

    ```yaml
    catalogues:
      segment:
        unplanned: warning
        calls:
          Order Completed:
            method: track
            params:
              properties:
                type: object
                required: true
                properties:
                  order_id: {type: string, required: true, format: uuid}
                  revenue: {type: number, minimum: 0}
                  products: {type: array, items: {type: object, properties: {price: {type: number, required: true}}}}
          Signed Up: {params: [userId]}
        methods:
          identify:
            params:
              traits: {type: object, properties: {email: {type: string, format: email}}}
      firebase:
        unplanned: allowed
        calls:
          purchase: {additionalProperties: false, params: {value: {type: number, required: true}, currency: {const: EUR}}}
    ```

    ### Journeys

    Journey rules compare a record with the earlier records of its device (a recording, or one
    `listen` source) and session (`context.session.id`; a `sessionEnd` record or another session id
    ends it). Durations are a whole number of `ms`, `s`, `m` or `h`.

    ```yaml
    plan: Shop
    actions:
      checkout_started: {once: session}
      purchase:
        after: [checkout_started]     # one of these earlier in the same session, else out-of-order
        once: session                 # session, screen (one screen visit) or app-launch, else repeated
        duplicateWithin: 500ms        # same name and properties again within 500ms: duplicate
    funnels:
      checkout:
        steps: [checkout_started, purchase]
        maxGap: 10m                   # at most 10 minutes between two steps
        severity: warning
    ```

    - `after` (on an entry): a tag or a list; one of them must have been sent earlier in the same
      session of the same device, else `out-of-order`, naming the latest one sent in another
      session if any.
    - `once` (on an entry): `session`, `screen` (one visit: until the next screen record) or
      `app-launch` (each recording `validate` reads, and each app run in it; under `listen`, until
      the app reconnects as another run or `POST /reset` starts a new segment, which starts every
      journey rule afresh); sent again in the same one is `repeated`, naming the first record.
    - `duplicateWithin` (on an entry): the same tag with the same properties again within that
      time is `duplicate` (the classic double-fire), naming the record it repeats. Up to 1,024
      different property sets per entry and device are remembered within the window; past that the
      oldest are forgotten and a `duplicate` warning on the record says the check was partial there.
    - `funnels` (top level): per name, `steps` (tag names, in order; a tag may be several steps),
      `maxGap` (the longest time between two steps) and `severity` (`error` by default). Per device
      and session a funnel starts at its step 1 and is reached when its last step comes in order
      (the funnel's coverage item passes). Each break is one finding: `funnel-dropped` at step N
      (on the record that ended the session, or on the step that came later than `maxGap`: that
      attempt is over, its later steps pass until step 1 starts another) or `funnel-order` (a step
      came before the step due, naming both: the attempt goes on from the step seen, the steps it
      skipped are not awaited, and it no longer counts as reached). An earlier step again is the
      user going back and keeps the progress. A funnel still under way when the recording ends is
      not reported.

    `after` and the steps must name planned tags (of any section). Every journey finding names both
    records, the one that broke the rule and the one it needed or repeated (`#seq name at time`),
    and the plan line of the rule. What a device remembers is bounded: one record per entry and
    rule (1,024 property sets per entry for `duplicateWithin`) and one progress per funnel; a
    session's funnels are forgotten when it ends, and past 4,096 devices the least recently seen
    half is forgotten.

    ### Consent

    The plan maps providers to consent categories; the recording's `consent` records (the hub's
    `setConsent`, properties `scope` and `granted`) say what each device allowed. After consent for
    a category is withdrawn (or for one provider: a provider's decision overrides its category's),
    every call a provider of it receives is `consent-withdrawn`, until consent is given again.

    ```yaml
    plan: Podcasts
    consent:
      default: granted              # or denied (opt-in, as under GDPR): what applies before any decision
      categories:
        analytics: [firebase, amplitude, segment, piano]
        marketing: [braze, batch]
    ```

    - `default`: `granted` (the default) or `denied`; under `denied`, a call before any grant is
      `consent-withdrawn` too.
    - `categories`: per category name (`analytics`, `marketing`, `advertising`, `personalization`,
      `essential`, or any other), a provider id or a list of them. A provider is in one category
      only, and must be one Tagscope knows or one declared in `customProviders`. An `essential`
      provider is always allowed, unless a decision names the provider itself.

    A call is an output `sent`, or with calls and not `blocked`; blocked outputs are the hub doing its
    job, and the `consent` record itself reaches every provider (that is how SDKs learn of it). Each
    finding names both records: the call, and the `consent` record it broke (`#seq consent at
    time`, on which in-app device), with the plan line of the category. Decisions the hub held
    before the recording started (restored at launch, or made before `attachDebugger`) open it as
    `consent` records of their own, with `atAttach: true` and no provider output, so a late
    recording still knows what was withdrawn; a hub whose default is opt-in
    (`HubConfiguration(defaultConsent: false)`) tells it first (`{"default":false,"atAttach":true}`,
    no `scope`), and on its device that default applies over the plan's `default`: a finding before
    any grant says which it used (`the hub's default: denied, recorded by #1 consent…` or `the
    plan's default: denied`). The opt-out default (granted) is not recorded: a recording without it,
    or made before, reads with the plan's. `plan codegen` registers each
    provider with its category and names it in the provider's doc comment. `plan import` carries no consent (nor
    journey rules): none of the formats it reads has them (Segment sets consent per destination in
    the workspace, mParticle sends it with each batch); add them to the imported plan.

    Calls received on the wire (`listen`, `proxy`: an SDK's own requests, its automatic events
    included, which the hub never sees) are checked against the consent of the app's in-app device
    (a source whose records the hub made): when the session has one, its consent applies to every
    wire source; with several, a wire call joins the one whose user (`context.session.user`) is
    the call's. A consent an SDK sends on the wire itself (Adobe Edge's `privacy/set-consent`,
    recorded as a `consent` record of provider `adobe`) applies to the later calls of that wire
    source, over the in-app device's decisions. A wire source that joins none is reported once as `consent-unchecked` (a warning),
    and so is a provider with calls but no category, and a `consent` record without a valid `scope`
    (`category:NAME` or `provider:ID`) and `granted`: nothing passes unchecked in silence. What the
    check remembers is bounded: one decision per category and provider the plan names, per device;
    past 4,096 devices the least recently seen half is forgotten.

    ### Violations

    Each violation has a severity (the entry's; `unplanned` for unplanned tags; for `provider-rule`,
    `warning` when the SDK only degrades the call, else `error`), the record, the provider if any, and
    a sentence naming the place in the record and the plan line. Rule ids:

    - `unplanned-tag`: a tag the plan does not list.
    - `missing-property`: a required property is absent or null.
    - `wrong-type`: a property or parameter (or a value inside one) of another type than planned.
    - `invalid-value`: a value outside `enum`, `const`, `format`, `pattern`, `minimum`/`maximum` or
      `minLength`/`maxLength`, or a parameter with another value than planned.
    - `unexpected-property`: a property the entry's `properties` does not list, or a key an
      object's `properties` (or a catalogue entry's `params`) does not list where
      `additionalProperties` is `false`.
    - `wrong-screen`: the tag happened on a screen its `screens` does not list.
    - `missing-call`: a planned call was not sent (`dropped` or `failed`).
    - `wrong-name`: the provider got calls, none with the planned `name` (and `method`).
    - `missing-param`: the planned call lacks a planned parameter (or a catalogue entry's required
      parameter, or a required key inside one).
    - `unexpected-call`: the provider got a call where the plan says `none`.
    - `provider-rule`: a call breaks the provider's documented rules (Firebase's 40-character event
      names, Braze's `$` keys…).
    - `unplanned-call`: a provider got a call its catalogue does not list.
    - `personal-data`: a value a provider received looks like personal data (`pii`) where the plan
      does not allow it; the message names the place and the kind, never the value.
    - `out-of-order`: a tag with `after` came with none of those tags before it in its session.
    - `repeated`: a tag with `once` was sent again in the same session, screen visit or app launch.
    - `duplicate`: a tag with `duplicateWithin` was sent again with the same properties within it.
    - `funnel-dropped`: a session ended short of a funnel's last step, or a step came later than
      `maxGap`.
    - `funnel-order`: a funnel's step came before the step due.
    - `consent-withdrawn`: a provider got a call after consent for its category (or for it) was
      withdrawn, or before any grant under `default: denied`.
    - `consent-unchecked` (a warning): calls the consent check could not check: a wire source
      joined to no in-app device, a provider without a category, a malformed `consent` record.

    ### Coverage

    Every entry is an item of the coverage checklist (`action playPodcast`), and so is each of its
    providers on each screen: the screens of its `when`, else the entry's `screens`, else any screen
    (`action playPodcast on favorites: firebase`, `action pausePodcast: amplitude`). A provider item
    is seen when a record of the tag on that screen reached the provider (not blocked); whether it
    conformed is reported by the violations. So is each catalogue entry (`segment call Order
    Completed`), seen when a call matched it, and each funnel (`funnel checkout`), seen when a session
    reached, dropped or broke it. An entry's journey findings fail the entry's own item, and its
    `consent-withdrawn` and `personal-data` findings the item of the provider that got the call (the
    entry's own when it names no such provider).
    """

  /// The reference for a terminal (`tagscope help plan`): ``markdown`` with each `### ` heading in
  /// capitals and code blocks indented by four spaces instead of fenced.
  public static let text: String = terminalText(markdown)

  /// `markdown` as plain text: fences dropped, their lines indented, headings in capitals.
  static func terminalText(_ markdown: String) -> String {
    var lines: [String] = []
    var inCode = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        inCode.toggle()
        continue
      }
      if inCode {
        lines.append("    " + line)
      } else if line.hasPrefix("### ") {
        lines.append(line.dropFirst(4).uppercased())
      } else {
        lines.append(String(line))
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
