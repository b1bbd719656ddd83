// swift-format-ignore-file
// The "Add the package to your app" snippet of the AnalyticsHub catalog's Getting started, verbatim (DocExampleCoverageTests checks that it
// is), compiled as the arguments of a look-alike of PackageDescription's `Package`: the test
// target cannot import PackageDescription. ManifestSnippetTests checks its names against
// Package.swift.

/// The parts of PackageDescription the snippet uses, with the same labels.
struct AppManifest {
  struct Dependency {
    var location: String
    static func package(url: String, from version: String) -> Dependency { Dependency(location: url) }
    static func package(path: String) -> Dependency { Dependency(location: path) }
  }

  struct TargetDependency: ExpressibleByStringLiteral {
    var name: String
    var package: String?
    init(stringLiteral value: String) { name = value }
    init(name: String, package: String?) {
      self.name = name
      self.package = package
    }
    static func product(name: String, package: String) -> TargetDependency {
      TargetDependency(name: name, package: package)
    }
  }

  struct Target {
    var name: String
    var isTest: Bool
    var dependencies: [TargetDependency]
    static func target(name: String, dependencies: [TargetDependency]) -> Target {
      Target(name: name, isTest: false, dependencies: dependencies)
    }
    static func testTarget(name: String, dependencies: [TargetDependency]) -> Target {
      Target(name: name, isTest: true, dependencies: dependencies)
    }
  }

  var name: String
  var dependencies: [Dependency]
  var targets: [Target]
}

func readmeAppManifest() -> AppManifest {
  AppManifest(
    name: "MyApp",
    dependencies: [
      .package(url: "https://github.com/your-org/tagscope", from: "0.1.0"),  // placeholder: your host
      // or a local checkout: .package(path: "../tagscope"),
    ],
    targets: [
      .target(
        name: "MyApp",
        dependencies: [
          .product(name: "AnalyticsHub", package: "tagscope"),
          .product(name: "FirebaseProvider", package: "tagscope"),  // one product per provider you use
          .product(name: "AmplitudeProvider", package: "tagscope"),
          .product(name: "TagscopeInspector", package: "tagscope"),
        ]),
      .testTarget(
        name: "MyAppTests",
        dependencies: [
          "MyApp",
          .product(name: "AnalyticsHubTesting", package: "tagscope"),
          .product(name: "TaggingPlan", package: "tagscope"),
          .product(name: "TaggingPlanTesting", package: "tagscope"),
        ]),
      .testTarget(
        name: "MyAppUITests",  // asks a running `tagscope listen` what the app sent
        dependencies: [
          .product(name: "TagscopeClient", package: "tagscope"),
          .product(name: "TagscopeClientTesting", package: "tagscope"),
        ]),
    ]
  )
}
