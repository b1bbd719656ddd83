// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Tagscope",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "AnalyticsHub", targets: ["AnalyticsHub"]),
    .executable(name: "tagscope", targets: ["tagscope"]),
    .library(name: "TagscopeInspector", targets: ["TagscopeInspector"]),
    .library(name: "AnalyticsProviders", targets: ["AnalyticsProviders"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    .target(name: "AnalyticsHub"),
    .target(name: "TagscopeInspector", dependencies: ["AnalyticsHub"]),
    .target(name: "AnalyticsProviders", dependencies: ["AnalyticsHub"]),
    .target(name: "PodcastDemo", dependencies: ["AnalyticsHub", "AnalyticsProviders"]),
    .executableTarget(
      name: "tagscope",
      dependencies: [
        "AnalyticsHub", "PodcastDemo", "TagscopeInspector", "TagscopeUI",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "TagscopeBench",
      dependencies: ["AnalyticsHub", "AnalyticsProviders", "PodcastDemo", "TagscopeInspector", "TagscopeUI"]),
    .testTarget(name: "AnalyticsHubTests", dependencies: ["AnalyticsHub", "PodcastDemo"]),
    .testTarget(
      name: "TagscopeInspectorTests", dependencies: ["TagscopeInspector", "AnalyticsHub", "PodcastDemo"]),
    .testTarget(
      name: "AnalyticsProvidersTests", dependencies: ["AnalyticsHub", "AnalyticsProviders", "PodcastDemo"]),
    .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
    .target(name: "TagscopeUI", dependencies: ["AnalyticsHub", "TagscopeInspector", "CNcursesw"]),
    .testTarget(name: "TagscopeUITests", dependencies: ["TagscopeUI", "AnalyticsHub"], exclude: ["Goldens"]),
  ],
  swiftLanguageModes: [.v6]
)
