import Foundation

/// This package's target graph as `swift package dump-package` describes it: products, targets and
/// what each target depends on (a target of this package, or a product of another package).
struct PackageManifest: Decodable {
  /// A product of this package and the targets it is made of.
  struct Product: Decodable {
    let name: String
    let targets: [String]
  }

  /// A target and its direct dependencies.
  struct Target: Decodable {
    let name: String
    /// `regular`, `executable`, `test`, `system`…
    let type: String
    let dependencies: [Dependency]
  }

  /// One dependency of a target: `byName` and `target` name a target of this package (or, for
  /// `byName`, a product of another one), `product` a product of another package.
  struct Dependency: Decodable {
    let name: String
    /// The other package, for a `product` dependency.
    let package: String?

    private enum Kind: String, CodingKey { case byName, target, product }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Kind.self)
      guard let kind = container.allKeys.first else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: decoder.codingPath, debugDescription: "a dependency of no known kind"))
      }
      var fields = try container.nestedUnkeyedContainer(forKey: kind)
      name = try fields.decode(String.self)
      package = kind == .product ? try fields.decodeIfPresent(String.self) : nil
    }
  }

  /// What a closure over the graph reached.
  struct Closure {
    /// Targets of this package.
    var targets: Set<String> = []
    /// Products of other packages, as `package/product`.
    var externalProducts: Set<String> = []
  }

  let products: [Product]
  let targets: [Target]

  /// Reads the manifest of the package at `root`, evaluated by `swift package dump-package` with
  /// its scratch files in `scratch` (no build, no network: the manifest alone).
  static func load(root: URL, scratch: URL) throws -> PackageManifest {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "package", "--scratch-path", scratch.path, "dump-package"]
    process.currentDirectoryURL = root
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return try JSONDecoder().decode(PackageManifest.self, from: data)
  }

  /// Everything the products named `names` link, transitively.
  func closure(ofProducts names: [String]) -> Closure {
    let start = products.filter { names.contains($0.name) }.flatMap(\.targets)
    return closure(ofTargets: start)
  }

  /// Everything the targets named `names` depend on, transitively, themselves included.
  func closure(ofTargets names: [String]) -> Closure {
    let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    var result = Closure()
    var pending = names
    while let name = pending.popLast() {
      guard let target = byName[name] else {
        result.externalProducts.insert(name)
        continue
      }
      guard result.targets.insert(name).inserted else { continue }
      for dependency in target.dependencies {
        if let package = dependency.package {
          result.externalProducts.insert("\(package)/\(dependency.name)")
        } else {
          pending.append(dependency.name)
        }
      }
    }
    return result
  }
}
