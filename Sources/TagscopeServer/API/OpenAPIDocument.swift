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
        "description": "What automated UI tests ask tagscope listen: counts, records (filtered with the debugger's filter language), plan violations and coverage, a long-poll wait for records, and reset between tests. Everything counts from the start of the current segment (POST /tagscope/v1/reset starts a new one; the recording keeps every record)."
      },
      "servers": [{"url": "http://127.0.0.1:7531"}],
      "security": [{}, {"bearer": []}],
      "paths": {
        "/tagscope/v1/summary": {
          "get": {
            "operationId": "summary",
            "summary": "Counts of the current segment",
            "responses": {
              "200": {"description": "Counts", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Summary"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"}
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
              {"name": "limit", "in": "query", "description": "Most records in the page (default 100).", "schema": {"type": "integer", "minimum": 1, "maximum": 1000}}
            ],
            "responses": {
              "200": {"description": "A page of records", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RecordPage"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"}
            }
          }
        },
        "/tagscope/v1/violations": {
          "get": {
            "operationId": "violations",
            "summary": "The tagging plan's violations in the current segment, as in the validate JSON report",
            "responses": {
              "200": {"description": "Violations", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Violations"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "404": {"$ref": "#/components/responses/NoPlan"}
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
              {"name": "timeout", "in": "query", "description": "Seconds to wait at most (default 10); 0 answers at once with what the segment holds.", "schema": {"type": "number", "minimum": 0, "maximum": 300}}
            ],
            "responses": {
              "200": {"description": "`count` matching records arrived", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/WaitResult"}}}},
              "400": {"$ref": "#/components/responses/BadRequest"},
              "401": {"$ref": "#/components/responses/Unauthorized"},
              "408": {"description": "The timeout passed first: the matching records that did arrive", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/WaitResult"}}}},
              "503": {"$ref": "#/components/responses/Busy"}
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
          "filter": {"name": "filter", "in": "query", "description": "The debugger's filter language (terms that must all match: name:Order, kind:screen, provider:\#(Vendors.firebase), status:sent, source~phone, screen:home, has:violations, rule:wrong-name, call:identify, prop.sku:A-1, param.value>10…; provider: takes a vendor id or alias, \#(Vendors.names.joined(separator: ", ")), or a plan's custom provider).", "schema": {"type": "string"}}
        },
        "responses": {
          "BadRequest": {"description": "A parameter is invalid; the message names it", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "Unauthorized": {"description": "Missing or wrong token", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "NoPlan": {"description": "listen runs without a tagging plan", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "Busy": {"description": "Too many waits at once", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        },
        "schemas": {
          "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}},
          "Counts": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
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
              "recording": {"type": ["string", "null"], "description": "The recording file the session writes (listen/proxy --record, or the debugger's timeline file), null when it is not recorded."},
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
