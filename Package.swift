// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Tagscope",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "AnalyticsHub", targets: ["AnalyticsHub"]),
    .library(name: "AnalyticsProviders", targets: ["AnalyticsProviders"]),
    .library(name: "TagscopeInspector", targets: ["TagscopeInspector"]),
    .executable(name: "tagscope", targets: ["tagscope"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.24.0"),
  ],
  targets: [
    .target(name: "AnalyticsHub"),
    .target(name: "AnalyticsProviders", dependencies: ["AnalyticsHub"]),
    .target(name: "TagscopeInspector", dependencies: ["AnalyticsHub"]),
    .target(name: "PodcastDemo", dependencies: ["AnalyticsHub", "AnalyticsProviders"]),
    .target(
      name: "TagscopeServer",
      dependencies: [
        "AnalyticsHub",
        "AnalyticsProviders",
        "TagscopeInspector",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
      ]),
    .executableTarget(
      name: "tagscope",
      dependencies: [
        "AnalyticsHub", "PodcastDemo", "TagscopeInspector", "TagscopeServer", "TaggingPlan",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "TagscopeBench",
      dependencies: [
        "AnalyticsHub", "AnalyticsProviders", "PodcastDemo", "TagscopeInspector", "TagscopeServer",
        "TaggingPlan",
      ]),
    .target(
      name: "TaggingPlan",
      dependencies: [
        "AnalyticsHub", "TagscopeInspector", "AnalyticsProviders", .product(name: "Yams", package: "Yams"),
      ]),
    .testTarget(name: "AnalyticsHubTests", dependencies: ["AnalyticsHub", "PodcastDemo"]),
    .testTarget(
      name: "TaggingPlanTests",
      dependencies: ["TaggingPlan", "TagscopeInspector", "AnalyticsHub", "PodcastDemo"]),
    .testTarget(
      name: "AnalyticsProvidersTests", dependencies: ["AnalyticsHub", "AnalyticsProviders", "PodcastDemo"]),
    .testTarget(
      name: "TagscopeInspectorTests", dependencies: ["TagscopeInspector", "AnalyticsHub", "PodcastDemo"]),
    .testTarget(
      name: "TagscopeServerTests",
      dependencies: ["TagscopeServer", "TagscopeInspector", "AnalyticsHub", "PodcastDemo"]),
  ],
  swiftLanguageModes: [.v6]
)
