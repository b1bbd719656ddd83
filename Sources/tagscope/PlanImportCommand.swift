import ArgumentParser
import Foundation
import TaggingPlan
import TaggingPlanImport
import TagscopeRecording
import TagscopeVendors

extension ImportFormat: ExpressibleByArgument {}
extension UnplannedCalls: ExpressibleByArgument {}

/// `tagscope plan import [--from FORMAT] [--provider ID] [--name NAME] [--unplanned …] [-o FILE]
/// [--json FILE] PATH…`.
struct PlanImportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract:
      "Turn another tool's tracking plan into a plan's call catalogue (catalogues:), printed as YAML.",
    discussion: """
      Reads Segment Protocols (Config API tracking plan, Public API rules, typewriter's plan.json), \
      RudderStack rudder-cli \
      projects (the tracking plan with its events, properties and custom types files, or their \
      directory; {{ .NAME }} placeholders take RUDDER_NAME environment variables, then the \
      .vars.yaml files given, as rudder-cli does; a rule's includes brings in another given plan's \
      rules), Snowplow Iglu schemas (a vendor/name/jsonschema/1-0-0 tree), mParticle data plans \
      and plain JSON Schema per event (Avo, Amplitude Data; --provider is required). The format is \
      told from the content unless --from says it: a first line on standard error says which and \
      why (read as RudderStack (RudderTyper plan.json: rules.events[].rules, id tp_…)); a file \
      that reads as two formats (a Config API plan with neither Segment's rs_ nor RudderStack's \
      tp_ ids) is refused with the choices. RudderTyper's plan.json is RudderStack's; a bare \
      Config API rules object (global, events, identify, group: Terraform's rules_json_file) is \
      Segment's.

      Each event becomes an entry of the provider's catalogue: the call name, its SDK method and \
      the JSON Schema constraints of its parameters (every validation keyword of draft-04 to \
      2020-12: tagscope help plan lists them). $refs within a file are resolved (JSON pointers, \
      $id base URIs, $anchor, $dynamicRef); a remote $ref is never fetched. What is not carried \
      is a warning on standard error, file:line:column and JSON path, also listed at the top of \
      the YAML (keys left out on purpose, such as a plan's ids and dates or a schema's title and \
      examples, in one line per kind); a last line accounts for every key of the sources: read N \
      keys: C carried, R reported. Every entry is commented with where it comes from. The catalogue's propertiesAt \
      says where a message the provider's SDK sends through listen holds the event's properties \
      (\(Vendors.propertiesPlaces(quote: ""))), so one entry checks in-app calls and SDK \
      messages alike.

      Examples:
        tagscope plan import tracking-plan.json -o plan.yaml
        tagscope plan import --from rudderstack catalog/ --name Podcasts
        tagscope plan import --from iglu schemas/ --unplanned warning
        tagscope plan import --from jsonschema --provider amplitude events.json

      --json writes the same account as one JSON object: the format and why, the sources, the key \
      counts (keys, carried, reported) and every warning with its file, line, column and JSON path.

      -o and --json write a new file, or with --force replace a regular file; a symbolic link, FIFO, \
      device or directory given to them is refused (write to standard output and redirect it instead).

      Exit status: 0 (also with warnings); 2 when -o or --json names an existing file without --force or \
      something other than a regular file, or when \
      a source cannot be imported (invalid JSON or YAML, not of the format, a required field \
      missing, no event definition kept), reported as file:line:column: error: … with nothing \
      written. A repeated JSON key is a warning (its last value is kept); a property name the plan \
      format refuses (an empty one) is left out with a warning. \(ExitStatusWords.usage)
      """)

  @Argument(help: "The files to import, or directories of them.")
  var paths: [String]

  @Option(
    help:
      "The source format: segment, rudderstack, iglu, mparticle or jsonschema (default: told from the content)."
  )
  var from: ImportFormat?

  @Option(
    help:
      "The catalogue's provider id (default: segment, rudderstack, snowplow or mparticle; required for jsonschema)."
  )
  var provider: String?

  @Option(help: "The plan's name (plan:); by default the source's.")
  var name: String?

  @Option(help: "What a call no entry matches is: error, warning or allowed.")
  var unplanned: UnplannedCalls = .error

  @Option(name: .shortAndLong, help: "Write the plan to this file instead of standard output.")
  var output: String?

  @Option(help: "Also write what was read and not carried (keys, warnings) to this file as JSON.")
  var json: String?

  @Flag(help: "Overwrite the -o and --json files when they exist (regular files only).")
  var force = false

  func run() throws {
    for path in [output, json].compactMap(\.self) {
      do { try OutputFile.check(path, replacing: force) } catch {
        StandardError.write("error: \(error)\n")
        throw ExitCode(2)
      }
    }
    let plan: ImportedPlan
    do throws(ImportError) {
      plan = try PlanImporter.run(
        paths: paths,
        options: ImportOptions(
          format: from, provider: provider, name: name, unplanned: unplanned,
          environment: ProcessInfo.processInfo.environment))
    } catch {
      for warning in error.warnings { StandardError.write("\(warning)\n") }
      StandardError.write("\(error)\n")
      throw ExitCode(2)
    }
    if let evidence = plan.evidence { StandardError.write("\(evidence)\n") }
    for warning in plan.warnings {
      StandardError.write("\(warning)\n")
    }
    StandardError.write("\(plan.keys)\n")
    if let json {
      do { try OutputFile.write(Data(plan.reportJSON.utf8), to: json, replacing: force) } catch {
        StandardError.write("error: \(error)\n")
        throw ExitCode(2)
      }
    }
    let yaml = plan.yaml
    guard let output else {
      FileHandle.standardOutput.write(Data(yaml.utf8))
      return
    }
    do { try OutputFile.write(Data(yaml.utf8), to: output, replacing: force) } catch {
      StandardError.write("error: \(error)\n")
      throw ExitCode(2)
    }
  }
}
