import TagscopeVendors

/// The OpenAPI 3.1 description of the query API, served at `GET /tagscope/v1/openapi.json`.
public enum OpenAPIDocument {
  /// The document, as JSON.
  public static let json = #"""
    {
      "openapi": "3.1.0",
      "info": {
        "title": "tagscope listen query API",
        "version": "1",
        "description": "What automated UI tests ask tagscope listen: counts, records (filtered with the debugger's filter language), plan violations and coverage, a long-poll wait for records, and reset between tests. Everything counts from the start of the current segment (POST /tagscope/v1/reset starts a new one; the recording keeps every record). A UI test scope (POST /tagscope/v1/scope/begin, …/scope/end; its lines are in the recording) holds the records stored while it is open, of one source if it names one: scope=NAME narrows summary, records, wait and violations to them, and GET /tagscope/v1/assert checks them at once."
      },
      "servers": [{"url": "http://127.0.0.1:7531"}],
      "security": [{}, {"bearer": []}],
      "paths": {
        "/tagscope/v1/summary": {
          "get": {
            "operationId": "summary",
            "summary": "Counts of the current segment, or of a scope's records",
            "parameters": [{"$ref": "#/components/parameters/scope"}],
            "responses": {
              "200": {"description": "Counts", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Summary"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "404": {"$ref": "#/components/responses/NoScope"}
            }
          }
        },
        "/tagscope/v1/records": {
          "get": {
            "operationId": "records",
            "summary": "Records of the current segment, filtered, a page at a time",
            "parameters": [
              {"$ref": "#/components/parameters/filter"},
              {"name": "source", "in": "query", "description": "Only records from this source (exact).", "schema": {"type": "string", "minLength": 1}},
              {"name": "since", "in": "query", "description": "The cursor (`next`) of the previous page: records from this position on.", "schema": {"type": "integer", "minimum": 0, "maximum": 9223372036854775807}},
              {"name": "limit", "in": "query", "description": "Most records in the page (default 100).", "schema": {"type": "integer", "minimum": 1, "maximum": 1000}},
              {"$ref": "#/components/parameters/scope"}
            ],
            "responses": {
              "200": {"description": "A page of records", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RecordPage"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "404": {"$ref": "#/components/responses/NoScope"}
            }
          }
        },
        "/tagscope/v1/violations": {
          "get": {
            "operationId": "violations",
            "summary": "The tagging plan's violations in the current segment (or a scope's records), as in the validate JSON report",
            "parameters": [{"$ref": "#/components/parameters/scope"}],
            "responses": {
              "200": {"description": "Violations", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Violations"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "404": {"description": "listen runs without a tagging plan, or no scope has that name", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            }
          }
        },
        "/tagscope/v1/coverage": {
          "get": {
            "operationId": "coverage",
            "summary": "The tagging plan's coverage in the current segment, as in the validate JSON report",
            "responses": {
              "200": {"description": "Coverage", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CoverageReply"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "404": {"$ref": "#/components/responses/NoPlan"}
            }
          }
        },
        "/tagscope/v1/wait": {
          "get": {
            "operationId": "wait",
            "summary": "Waits until `count` records of the current segment match `filter`, or the timeout",
            "parameters": [
              {"$ref": "#/components/parameters/filter"},
              {"name": "count", "in": "query", "description": "How many matching records to wait for (default 1).", "schema": {"type": "integer", "minimum": 1, "maximum": 1000}},
              {"name": "timeout", "in": "query", "description": "Seconds to wait at most (default 10); 0 answers at once with what the segment holds.", "schema": {"type": "number", "minimum": 0, "maximum": 300}},
              {"$ref": "#/components/parameters/scope"}
            ],
            "responses": {
              "200": {"description": "`count` matching records arrived", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/WaitResult"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "404": {"$ref": "#/components/responses/NoScope"},
              "408": {"description": "The timeout passed first: the matching records that did arrive", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/WaitResult"}}}},
              "503": {"$ref": "#/components/responses/Busy"}
            }
          }
        },
        "/tagscope/v1/delivery": {
          "get": {
            "operationId": "delivery",
            "summary": "The delivery ledger: each call the app's hub handed an SDK, followed to the wire record that carried it (tagscope help listen, DELIVERY)",
            "parameters": [
              {"name": "state", "in": "query", "description": "Only entries in this state.", "schema": {"type": "string", "enum": ["delivered", "inFlight", "queued", "droppedBySDK", "refused", "lost", "noWireSource", "ambiguous"]}},
              {"name": "provider", "in": "query", "description": "Only calls of this provider (counts too).", "schema": {"type": "string"}},
              {"name": "device", "in": "query", "description": "Only calls of this in-app source (counts too).", "schema": {"type": "string"}},
              {"name": "limit", "in": "query", "description": "Most entries, the last ones (default 100).", "schema": {"type": "integer", "minimum": 1, "maximum": 1000}},
              {"name": "wait", "in": "query", "description": "settled: answer once every call made before the request is delivered or failed (no longer queued or in flight).", "schema": {"type": "string", "enum": ["settled"]}},
              {"name": "timeout", "in": "query", "description": "Seconds to wait at most (default 10).", "schema": {"type": "number", "minimum": 0, "maximum": 300}}
            ],
            "responses": {
              "200": {"description": "Counts per state, entries, wire calls no in-app call explains", "content": {"application/json": {"schema": {"type": "object", "required": ["counts", "entries", "unexplained"], "properties": {"counts": {"type": "object", "additionalProperties": {"type": "integer"}}, "entries": {"type": "array", "items": {"type": "object", "required": ["number", "position", "provider", "method", "device", "called", "state"]}}, "unexplained": {"type": "array", "items": {"type": "object", "required": ["position", "provider", "source"]}}, "unexplainedCount": {"type": "integer"}}}}}},
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "408": {"description": "The timeout passed first: the ledger as it stands"}
            }
          }
        },
        "/tagscope/v1/reset": {
          "post": {
            "operationId": "reset",
            "summary": "Starts a new segment: the API counts from now on; the recording keeps everything, with a marker line",
            "responses": {
              "200": {"description": "The new segment", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Segment"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"}
            }
          }
        },
        "/tagscope/v1/scope/begin": {
          "post": {
            "operationId": "beginScope",
            "summary": "Begins a UI test scope: the records stored until its end are its own (of `source` only, if given); a scope line is written to the recording",
            "parameters": [
              {"name": "name", "in": "query", "required": true, "description": "The scope's name; a name begun again after its end names the new scope.", "schema": {"$ref": "#/components/schemas/ScopeName"}},
              {"name": "source", "in": "query", "description": "Only records from this source (exact, as the summary's bySource names it).", "schema": {"type": "string", "minLength": 1}}
            ],
            "responses": {
              "200": {"description": "The scope, open", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Scope"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "409": {"description": "A scope of that name is open", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "503": {"description": "Too many scopes begun", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            }
          }
        },
        "/tagscope/v1/scope/end": {
          "post": {
            "operationId": "endScope",
            "summary": "Ends a UI test scope behind every record delivered so far: its record count and violations",
            "parameters": [
              {"name": "name", "in": "query", "required": true, "description": "The open scope's name.", "schema": {"$ref": "#/components/schemas/ScopeName"}}
            ],
            "responses": {
              "200": {"description": "The scope's verdict", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ScopeVerdict"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "404": {"description": "No open scope has that name", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "409": {"description": "The scope is being begun or ended", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            }
          }
        },
        "/tagscope/v1/assert": {
          "get": {
            "operationId": "assert",
            "summary": "Checks at once what a UI test expects of the records of a scope (or the current segment) passing `filter` (all without one): exactly N, no unplanned tag, names in order, no violations; no check passes",
            "parameters": [
              {"$ref": "#/components/parameters/scope"},
              {"name": "exactly", "in": "query", "description": "Exactly this many records (of those passing `filter`).", "schema": {"type": "integer", "minimum": 0, "maximum": 100000}},
              {"$ref": "#/components/parameters/filter"},
              {"name": "unplanned", "in": "query", "description": "`none`: no record is a tag the plan does not know (needs a plan).", "schema": {"enum": ["none"]}},
              {"name": "order", "in": "query", "description": "Tag names separated by commas: records with these names come in this order (others may come between).", "schema": {"type": "string", "pattern": "^[^,]+(,[^,]+)*$"}},
              {"name": "violations", "in": "query", "description": "`none`: the plan found no violation (needs a plan).", "schema": {"enum": ["none"]}}
            ],
            "responses": {
              "200": {"description": "Whether every check passed, and each that failed with its records", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AssertResult"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "404": {"description": "No scope has that name, or a check needs a plan listen runs without", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            }
          }
        },
        "/tagscope/v1/openapi.json": {
          "get": {
            "operationId": "openapi",
            "summary": "This document",
            "responses": {
              "200": {"description": "The OpenAPI document", "content": {"application/json": {"schema": {"type": "object"}}}},
              "401": {"$ref": "#/components/responses/Unauthorized"}
            }
          }
        }
      },
      "components": {
        "securitySchemes": {
          "bearer": {"type": "http", "scheme": "bearer", "description": "listen's --token, when it has one."}
        },
        "parameters": {
          "scope": {"name": "scope", "in": "query", "description": "Only the records of this UI test scope (POST /tagscope/v1/scope/begin) within the current segment.", "schema": {"$ref": "#/components/schemas/ScopeName"}},
          "filter": {"name": "filter", "in": "query", "description": "The debugger's filter language (terms that must all match: name:Order, kind:screen, provider:\#(Vendors.firebase), status:sent, source~phone, screen:home, has:violations, rule:wrong-name, call:identify, prop.sku:A-1, param.value>10…; provider: takes a vendor id or alias, \#(Vendors.names.joined(separator: ", ")), or a plan's custom provider).", "schema": {"type": "string"}}
        },
        "responses": {
          "BadRequest": {"description": "A parameter is invalid; the message names it", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "Unauthorized": {"description": "Missing or wrong token", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "NoPlan": {"description": "listen runs without a tagging plan", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "NoScope": {"description": "No scope has that name", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "Busy": {"description": "Too many waits at once", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        },
        "schemas": {
          "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}},
          "Counts": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
          "ScopeName": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]+$"},
          "Scope": {
            "type": "object", "required": ["scope", "source", "started", "open"],
            "properties": {"scope": {"type": "string"}, "source": {"type": ["string", "null"]}, "started": {"type": "string"}, "open": {"type": "boolean"}}
          },
          "ScopeVerdict": {
            "type": "object", "required": ["scope", "source", "started", "open", "records", "violations"],
            "properties": {
              "scope": {"type": "string"}, "source": {"type": ["string", "null"]}, "started": {"type": "string"}, "open": {"type": "boolean"},
              "records": {"type": "integer", "minimum": 0},
              "violations": {"oneOf": [{"type": "null"}, {"type": "array", "items": {"$ref": "#/components/schemas/Violation"}}], "description": "null when listen has no plan"}
            }
          },
          "AssertResult": {
            "type": "object", "required": ["segment", "scope", "passed", "checks", "failures"],
            "properties": {
              "segment": {"type": "integer"}, "scope": {"type": ["string", "null"]}, "passed": {"type": "boolean"},
              "checks": {"type": "integer", "minimum": 0},
              "failures": {"type": "array", "items": {
                "type": "object", "required": ["check", "message", "records"],
                "properties": {
                  "check": {"enum": ["exactly", "unplanned", "order", "violations"]}, "message": {"type": "string"},
                  "records": {"type": "array", "items": {"$ref": "#/components/schemas/Record"}, "description": "The records it names, at most 20."}
                }
              }}
            }
          },
          "Segment": {
            "type": "object", "required": ["segment", "started"],
            "properties": {"segment": {"type": "integer", "minimum": 1}, "started": {"type": "string"}}
          },
          "Summary": {
            "type": "object",
            "required": ["segment", "started", "records", "withViolations", "byKind", "bySource", "byProvider", "coverage"],
            "properties": {
              "segment": {"type": "integer", "minimum": 1},
              "started": {"type": "string"},
              "records": {"type": "integer", "minimum": 0},
              "withViolations": {"type": "integer", "minimum": 0},
              "byKind": {"$ref": "#/components/schemas/Counts"},
              "bySource": {"$ref": "#/components/schemas/Counts"},
              "byProvider": {"$ref": "#/components/schemas/Counts"},
              "seqAnomalies": {"type": "integer", "minimum": 0, "description": "Records of this segment whose seq repeats, goes backwards or jumps more than 2^20 ahead within their source, counted as validate counts them in the recording (each native one also reported as a problem)."},
              "retriesSkipped": {"type": "integer", "minimum": 0, "description": "SDK messages since listen started that an SDK sent again after a 503 answered once they were already taken (the disk slower than the request timeout): skipped, so recorded once (each request reported as a problem)."},
              "fieldsNotUnderstood": {"type": "object", "description": "SDK payload fields of this segment's records that their decoder neither carried nor knows as transport metadata (each record's output keeps them under unread, with an sdk.field-not-understood violation): their count and the first one's place (record seq, provider, path).", "properties": {"count": {"type": "integer", "minimum": 0}, "first": {"type": ["string", "null"]}}},
              "logLinesNotUnderstood": {"type": "object", "description": "Lines since listen started that look like Firebase Analytics' (--log firebase) but that the log reader does not understand: their count and the first wording with its first place (I-ACS023044 at app.log line 40).", "properties": {"count": {"type": "integer", "minimum": 0}, "first": {"type": ["string", "null"]}}},
              "recording": {"type": ["string", "null"], "description": "The recording file the session writes (listen/proxy --record, or the debugger's timeline file), null when it is not recorded."},
              "scope": {"type": "string", "description": "The scope counted (scope=NAME): started is its beginning, coverage null."},
              "coverage": {"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/CoverageCounts"}]}
            }
          },
          "CoverageCounts": {
            "type": "object", "required": ["planned", "passed", "failing", "blocked", "notSeen"],
            "properties": {
              "plan": {"type": "string"},
              "planned": {"type": "integer"}, "passed": {"type": "integer"}, "failing": {"type": "integer"},
              "blocked": {"type": "integer"}, "notSeen": {"type": "integer"}
            }
          },
          "Record": {"type": "object", "description": "A record as the recording holds it (seq, time, kind, name, properties, context, outputs, source…).", "required": ["seq", "time", "kind", "name"]},
          "RecordPage": {
            "type": "object", "required": ["segment", "records", "next", "more"],
            "properties": {
              "segment": {"type": "integer"},
              "records": {"type": "array", "items": {"$ref": "#/components/schemas/Record"}},
              "next": {"type": "integer", "minimum": 0, "description": "The `since` of the next page."},
              "more": {"type": "boolean", "description": "Whether more matching records may follow now."}
            }
          },
          "WaitResult": {
            "type": "object", "required": ["segment", "count", "records"],
            "properties": {
              "segment": {"type": "integer"},
              "count": {"type": "integer", "minimum": 0},
              "records": {"type": "array", "items": {"$ref": "#/components/schemas/Record"}}
            }
          },
          "Violation": {
            "type": "object",
            "required": ["seq", "severity", "rule", "tag", "provider", "message", "file", "line", "time", "source", "planFile", "planLine", "expected", "actual"],
            "properties": {
              "seq": {"type": "integer"}, "severity": {"type": "string"}, "rule": {"type": "string"}, "tag": {"type": "string"},
              "provider": {"type": ["string", "null"]}, "message": {"type": "string"},
              "file": {"type": ["string", "null"]}, "line": {"type": ["integer", "null"]},
              "time": {"type": ["string", "null"]}, "source": {"type": ["string", "null"]},
              "planFile": {"type": ["string", "null"]}, "planLine": {"type": ["integer", "null"]},
              "expected": {}, "actual": {}
            }
          },
          "Violations": {
            "type": "object", "required": ["segment", "violations"],
            "properties": {"segment": {"type": "integer"}, "violations": {"type": "array", "items": {"$ref": "#/components/schemas/Violation"}}}
          },
          "CoverageItem": {
            "type": "object",
            "required": ["id", "section", "tag", "screen", "provider", "planLine", "state", "rules", "reasons", "records", "failures", "label"],
            "properties": {
              "id": {"type": "string"}, "section": {"type": "string"}, "tag": {"type": "string"},
              "screen": {"type": ["string", "null"]}, "provider": {"type": ["string", "null"]},
              "planLine": {"type": "integer"}, "state": {"enum": ["passed", "failing", "blocked", "not-seen"]},
              "rules": {"type": "array", "items": {"type": "string"}}, "reasons": {"type": "array", "items": {"type": "string"}},
              "records": {"type": "integer"}, "failures": {"type": "integer"},
              "label": {"type": "string", "description": "The state as the reports word it: passed, failing · 3 of 5 broke it (wrong-name), blocked (consent), not seen"}
            }
          },
          "CoverageReply": {
            "type": "object", "required": ["segment", "coverage"],
            "properties": {
              "segment": {"type": "integer"},
              "coverage": {
                "type": "object", "required": ["planned", "seen", "passed", "failing", "blocked", "notSeen", "missing", "items"],
                "properties": {
                  "planned": {"type": "integer"}, "seen": {"type": "integer"}, "passed": {"type": "integer"},
                  "failing": {"type": "integer"}, "blocked": {"type": "integer"}, "notSeen": {"type": "integer"},
                  "missing": {"type": "array", "items": {"type": "string"}},
                  "items": {"type": "array", "items": {"$ref": "#/components/schemas/CoverageItem"}}
                }
              }
            }
          }
        }
      }
    }
    """#
}
