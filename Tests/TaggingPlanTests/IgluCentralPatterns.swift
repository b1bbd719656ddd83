/// Every `pattern` in Snowplow's Iglu Central, the public registry of the JSON Schemas its SDKs and
/// pipeline use (github.com/snowplow/iglu-central, commit cbac22e, `schemas/` + the path given):
/// real plan patterns, each with the first schema that has it.
let igluCentralPatterns: [(pattern: String, schema: String)] = [
  (
    #"^(0|[1-9][0-9]{0,1})\.(0|[1-9][0-9]{0,1})\.(0|[1-9][0-9]{0,1})(-rc[0-9]{1,2}){0,1}$"#,
    "com.snowplowanalytics.datamodeling/config/jsonschema/1-0-0"
  ),
  (#"\d+\.\d+\.\d+-?.*"#, "com.snowplowanalytics.factotum/task_update/jsonschema/1-0-0"),
  (#"^\$[A-Z0-9-_]+"#, "com.snowplowanalytics.iglu/igluctl_config/jsonschema/1-0-0"),
  (#"^s3://"#, "com.snowplowanalytics.iglu/igluctl_config/jsonschema/1-0-0"),
  (
    #"^iglu:[a-zA-Z0-9-_.]+/[a-zA-Z0-9-_]+/[a-zA-Z0-9-_]+/[0-9]+-[0-9]+-[0-9]+$"#,
    "com.snowplowanalytics.self-desc/instance/jsonschema/1-0-0"
  ),
  (#"^[a-zA-Z0-9-_.]+$"#, "com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0"),
  (#"^[a-zA-Z0-9-_]+$"#, "com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0"),
  (#"^[0-9]+-[0-9]+-[0-9]+$"#, "com.snowplowanalytics.self-desc/schema/jsonschema/1-0-0"),
  (
    #"^iglu:[a-zA-Z0-9-_.]+/[a-zA-Z0-9-_]+/[a-zA-Z0-9-_]+/[1-9]+-[0-9]+-[0-9]+$"#,
    "com.snowplowanalytics.snowplow.badrows/loader_iglu_error/jsonschema/1-0-0"
  ),
  (#"^(\d+\.\d+\.\d+.*)$"#, "com.snowplowanalytics.snowplow.badrows/loader_iglu_error/jsonschema/2-0-0"),
  (
    #"^[A-Za-z0-9_-]+$"#,
    "com.snowplowanalytics.snowplow.enrichments/api_request_enrichment_config/jsonschema/1-0-0"
  ),
  (
    #"^iglu:[a-zA-Z0-9-_.]+/[a-zA-Z0-9-_]+/[a-zA-Z0-9-_]+/([1-9][0-9]*|\*)-((?:0|[1-9][0-9]*)|\*)-((?:0|[1-9][0-9]*)|\*)$"#,
    "com.snowplowanalytics.snowplow.enrichments/api_request_enrichment_config/jsonschema/1-0-0"
  ),
  (#"^\$.*$"#, "com.snowplowanalytics.snowplow.enrichments/api_request_enrichment_config/jsonschema/1-0-0"),
  (
    #"^iglu:([a-zA-Z0-9-_.]+)/([a-zA-Z0-9-_]+)/([a-zA-Z0-9-_]+)/([1-9][0-9]*(?:-(?:0|[1-9][0-9]*)){2})$"#,
    "com.snowplowanalytics.snowplow.enrichments/api_request_enrichment_config/jsonschema/1-0-0"
  ),
  (
    #"^iglu:([a-zA-Z0-9-_.]+)/([a-zA-Z0-9-_]+)/([a-zA-Z0-9-_]+)/([1-9][0-9]*|\*)-((?:0|[1-9][0-9]*)|\*)-((?:0|[1-9][0-9]*)|\*)$"#,
    "com.snowplowanalytics.snowplow.enrichments/sql_query_enrichment_config/jsonschema/1-0-0"
  ),
  (
    #"^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$|^[0-9a-f]{16}$"#,
    "com.snowplowanalytics.snowplow/client_session/jsonschema/1-0-0"
  ),
  (
    #"^[0-9]{4}-[0-9]{2}-[0-9]{2}\.[0-9]{3}$"#,
    "com.snowplowanalytics.snowplow/elasticsearch_enriched_event/jsonschema/2-0-0"
  ),
  (
    #"-?[0-9]+(?:\.[0-9+])?,-?[0-9]+(?:\.[0-9+])?"#,
    "com.snowplowanalytics.snowplow/elasticsearch_enriched_event/jsonschema/2-0-0"
  ),
  (#"^[0-9.]+x[0-9.]+$"#, "com.snowplowanalytics.snowplow/element_statistics/jsonschema/1-0-0"),
  (#"^[0-9.]+/[0-9.]+$"#, "com.snowplowanalytics.snowplow/element_statistics/jsonschema/1-0-0"),
  (#"^sp_[A-Za-z2-7]{26}$"#, "com.snowplowanalytics.snowplow/identity/jsonschema/2-0-0"),
  (#"^[a-zA-Z0-9-]+$"#, "com.snowplowanalytics.snowplow/recoveries/jsonschema/2-0-0"),
  (#"^[a-zA-Z0-9\.]+$"#, "com.snowplowanalytics.snowplow/recoveries/jsonschema/2-0-0"),
  (
    #"^[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}$"#,
    "com.snowplowanalytics.snowplow/web_page/jsonschema/1-0-0"
  ),
  (
    #"^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$"#,
    "com.urbanairship.connect/LOCATION/jsonschema/1-0-0"
  ),
]
