// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Tagscope",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "AnalyticsHub", targets: ["AnalyticsHub"]),
    .library(name: "AnalyticsProviders", targets: ["AnalyticsProviders"]),
    .library(name: "FirebaseProvider", targets: ["FirebaseProvider"]),
    .library(name: "AmplitudeProvider", targets: ["AmplitudeProvider"]),
    .library(name: "SegmentProvider", targets: ["SegmentProvider"]),
    .library(name: "PianoProvider", targets: ["PianoProvider"]),
    .library(name: "BrazeProvider", targets: ["BrazeProvider"]),
    .library(name: "AdobeProvider", targets: ["AdobeProvider"]),
    .library(name: "BatchProvider", targets: ["BatchProvider"]),
    .library(name: "MixpanelProvider", targets: ["MixpanelProvider"]),
    .library(name: "FPTIProvider", targets: ["FPTIProvider"]),
    .library(name: "AnalyticsHubTesting", targets: ["AnalyticsHubTesting"]),
    .library(name: "TagscopeInspector", targets: ["TagscopeInspector"]),
    .library(name: "TaggingPlan", targets: ["TaggingPlan"]),
    .library(name: "TagscopeClient", targets: ["TagscopeClient"]),
    .library(name: "TaggingPlanTesting", targets: ["TaggingPlanTesting"]),
    .library(name: "TagscopeClientTesting", targets: ["TagscopeClientTesting"]),
    // The demo app, for a package that drives it (the codegen round trip records it through the
    // mappings generated from its plan).
    .library(name: "PodcastDemo", targets: ["PodcastDemo"]),
    .executable(name: "tagscope", targets: ["tagscope"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.24.0"),
    .package(url: "https://github.com/apple/swift-system", from: "1.6.0"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
    .package(url: "https://github.com/apple/swift-certificates", from: "1.21.0"),
    .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    .package(url: "https://github.com/apple/swift-asn1", from: "1.3.0"),
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    // Firebase's own uploads (`app-measurement.com/a`) are protobuf: TagscopeServer decodes them.
    .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
  ],
  targets: [
    .target(name: "AnalyticsHub"),
    .target(name: "TagscopeClient"),
    // XCTest assertions over the client's UI test scopes, apart so the client does not load libXCTest.
    .target(name: "TagscopeClientTesting", dependencies: ["TagscopeClient"]),
    .target(name: "AnalyticsProvidersCore", dependencies: ["AnalyticsHub"]),
    // What Tagscope knows of each analytics vendor (ids, SDK endpoints, hosts, formats): data only.
    .target(name: "TagscopeVendors", dependencies: ["AnalyticsHub"]),
    .target(name: "FirebaseProvider", dependencies: ["AnalyticsHub", "AnalyticsProvidersCore"]),
    .target(name: "AmplitudeProvider", dependencies: ["AnalyticsHub", "AnalyticsProvidersCore"]),
    .target(name: "SegmentProvider", dependencies: ["AnalyticsHub", "AnalyticsProvidersCore"]),
    .target(name: "PianoProvider", dependencies: ["AnalyticsHub", "AnalyticsProvidersCore"]),
    .target(name: "BrazeProvider", dependencies: ["AnalyticsHub", "AnalyticsProvidersCore"]),
    .target(name: "AdobeProvider", dependencies: ["AnalyticsHub", "AnalyticsProvidersCore"]),
    .target(name: "BatchProvider", dependencies: ["AnalyticsHub", "AnalyticsProvidersCore"]),
    .target(name: "MixpanelProvider", dependencies: ["AnalyticsHub", "AnalyticsProvidersCore"]),
    .target(name: "FPTIProvider", dependencies: ["AnalyticsHub", "AnalyticsProvidersCore"]),
    .target(
      name: "AnalyticsProviders",
      dependencies: [
        "AnalyticsHub", "AnalyticsProvidersCore", "TagscopeVendors", "FirebaseProvider", "AmplitudeProvider",
        "SegmentProvider",
        "PianoProvider", "BrazeProvider", "AdobeProvider", "BatchProvider", "MixpanelProvider",
        "FPTIProvider",
      ]),
    .target(name: "AnalyticsHubTesting", dependencies: ["AnalyticsHub"]),
    .target(name: "TagscopeFuzzing"),
    // The foundation every side may link (apps, tests, the debugger): the JSON cursor and writer,
    // timestamps, the worker thread, POSIX files, the terminal-text sanitizer, the linear pattern engine.
    .target(
      name: "TagscopeBasics",
      dependencies: [.product(name: "SystemPackage", package: "swift-system")]),
    .target(
      name: "TagscopeRecording",
      dependencies: ["AnalyticsHub", "TagscopeBasics"]),
    .target(
      name: "TagscopeInspector",
      dependencies: [
        "AnalyticsHub", "TagscopeBasics", "TagscopeRecording",
        .product(name: "SystemPackage", package: "swift-system"),
      ]),
    .target(
      name: "TagscopeTimeline",
      dependencies: [
        "AnalyticsHub", "TagscopeRecording", .product(name: "SystemPackage", package: "swift-system"),
      ]),
    .target(name: "PodcastPlayerFeature", dependencies: ["AnalyticsHub"]),
    .target(
      name: "PodcastDemo",
      dependencies: ["AnalyticsHub", "AnalyticsProviders", "PodcastPlayerFeature"]),
    .target(
      name: "TagscopeServer",
      dependencies: [
        "AnalyticsHub",
        "AnalyticsProviders",
        "TagscopeVendors",
        "TagscopeBasics",
        "TagscopeRecording",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "NIOTLS", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        "CTagscopeZlib",
      ],
      // The schema the Firebase upload decoder's Swift is generated from, and how.
      exclude: ["FirebaseWire/Schema"]),
    .target(
      name: "TagscopeLive",
      dependencies: [
        "TaggingPlan", "TaggingPlanReports", "TagscopeInspector", "TagscopeRecording", "TagscopeServer",
        "TagscopeTimeline",
      ]),
    .executableTarget(
      name: "tagscope",
      dependencies: [
        "AnalyticsHub", "PodcastDemo", "TagscopeInspector", "TagscopeBasics", "TagscopeRecording",
        "TagscopeTimeline", "TagscopeServer", "TaggingPlan", "TaggingPlanReports", "TagscopeUI",
        "TagscopeLive",
        "TagscopeDiff", "TaggingPlanImport", "TaggingPlanCodegen",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "TagscopeBench",
      dependencies: [
        "AnalyticsHub", "AnalyticsHubTesting", "AnalyticsProviders", "PodcastDemo", "TagscopeInspector",
        "TagscopeRecording", "TagscopeTimeline", "TagscopeServer", "TaggingPlan", "TaggingPlanReports",
        "TagscopeUI",
        "TagscopeLive", "TagscopeDiff", "TaggingPlanImport", "TaggingPlanCodegen",
        // ProxyBench's local TLS vendor and HTTPS clients.
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "NIOTLS", package: "swift-nio"),
      ]),
    .target(
      name: "TagscopeDiff",
      dependencies: [
        "AnalyticsHub", "TaggingPlan", "TaggingPlanReports", "TagscopeBasics", "TagscopeRecording",
        "TagscopeTimeline",
      ]),
    .target(
      name: "TaggingPlan",
      dependencies: [
        "AnalyticsHub", "AnalyticsProvidersCore", "TagscopeRecording", "TagscopeVendors",
        .product(name: "Yams", package: "Yams"),
      ]),
    // What the tools link on top of the plan core: the validate runner, the text/HTML/JUnit/JSON
    // reports, plan inference and every provider's rules (an app's test target links TaggingPlan
    // alone, with the rules of the providers it links).
    .target(
      name: "TaggingPlanReports",
      dependencies: [
        "AnalyticsHub", "AnalyticsProviders", "TaggingPlan", "TagscopeBasics", "TagscopeRecording",
      ]),
    .target(
      name: "TaggingPlanImport",
      dependencies: [
        "TaggingPlan", "TagscopeRecording", "TagscopeVendors", .product(name: "Yams", package: "Yams"),
      ]),
    .target(name: "TaggingPlanCodegen", dependencies: ["TaggingPlan", "AnalyticsHub", "TagscopeVendors"]),
    .testTarget(
      name: "TaggingPlanCodegenTests",
      dependencies: [
        "TaggingPlanCodegen", "TaggingPlan", "TaggingPlanReports", "TaggingPlanImport", "AnalyticsHub",
        "PodcastDemo",
        "TagscopeRecording", "TagscopeDiff", "TagscopeTestSupport", "TagscopeFuzzing",
      ],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "TaggingPlanImportTests",
      dependencies: [
        "TaggingPlanImport", "TaggingPlan", "TaggingPlanReports", "TagscopeRecording", "TagscopeTimeline",
        "AnalyticsHub",
      ],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "AnalyticsHubTests", dependencies: ["AnalyticsHub", "AnalyticsHubTesting", "PodcastDemo"]),
    // XCTest assertions over a PlanTestRun, apart from TaggingPlan so `tagscope` does not load libXCTest.
    .target(name: "TaggingPlanTesting", dependencies: ["AnalyticsHub", "TaggingPlan"]),
    .testTarget(
      name: "PodcastPlayerFeatureTests",
      dependencies: ["PodcastPlayerFeature", "AnalyticsHub", "AnalyticsHubTesting"]),
    .testTarget(
      name: "TaggingPlanTests",
      dependencies: [
        "TaggingPlan", "TaggingPlanReports", "TaggingPlanTesting", "TagscopeBasics", "TagscopeRecording",
        "TagscopeTimeline",
        "AnalyticsHub",
        "AnalyticsHubTesting",
        "PodcastDemo", "TagscopeFuzzing", "TagscopeDiff",
      ]),
    .testTarget(
      name: "AnalyticsProvidersTests",
      dependencies: [
        "AnalyticsHub", "AnalyticsHubTesting", "AnalyticsProviders", "TagscopeVendors", "PodcastDemo",
      ]),
    .testTarget(
      name: "DocExamplesTests",
      dependencies: [
        "AnalyticsHub", "AnalyticsHubTesting", "AnalyticsProviders", "FirebaseProvider", "AmplitudeProvider",
        "TagscopeInspector", "TagscopeLive",
        "TagscopeRecording", "TagscopeServer", "TagscopeTimeline", "TaggingPlanImport",
        // HelpTopicTests: `tagscope help TOPIC` against the tables it prints.
        "TagscopeUI", "TaggingPlan", "TaggingPlanReports", "TagscopeDiff", "TaggingPlanCodegen",
      ]),
    // What an app links, read from this manifest's graph (no dependency: it runs `swift package`).
    .testTarget(name: "PackageGraphTests"),
    .testTarget(
      name: "TagscopeRecordingTests", dependencies: ["TagscopeRecording", "AnalyticsHub", "TagscopeFuzzing"]),
    .testTarget(
      name: "TagscopeTimelineTests",
      dependencies: [
        "TagscopeTestSupport",
        "TagscopeTimeline", "TagscopeRecording", "AnalyticsHub", "TagscopeFuzzing",
        // A live timeline fed by an inspector on a podcast hub, as the debugger's is.
        "TagscopeInspector", "AnalyticsHubTesting", "PodcastDemo",
      ]),
    .testTarget(
      name: "TagscopeInspectorTests",
      dependencies: [
        "TagscopeTestSupport",
        "TagscopeInspector", "TagscopeRecording", "TagscopeTimeline", "AnalyticsHub", "AnalyticsHubTesting",
        "PodcastDemo",
      ]),
    // What several test targets share (a raw TCP client, the podcast hub's tour, a recording read
    // back); linked by tests only.
    .target(
      name: "TagscopeTestSupport",
      dependencies: ["AnalyticsHub", "PodcastDemo", "TagscopeRecording", "TagscopeTimeline"],
      path: "Tests/TagscopeTestSupport"),
    .testTarget(
      name: "TagscopeServerTests",
      dependencies: [
        "TagscopeTestSupport",
        "TagscopeServer", "TagscopeInspector", "TagscopeRecording", "TagscopeTimeline", "AnalyticsHub",
        "AnalyticsProviders", "PodcastDemo", "TagscopeFuzzing",
        // SDKDevicesListenTests: a real live session's recording, replayed and validated;
        // ImportedPlanListenTests: against imported real plans.
        "TagscopeLive", "TaggingPlan", "TaggingPlanReports", "TaggingPlanImport",
        // IngestLimitsReadBackTests: diff reads what listen took.
        "TagscopeDiff",
        .product(name: "NIOHTTP1", package: "swift-nio"),
        // StreamFuzzTests: the native line framing in an embedded channel.
        .product(name: "NIOEmbedded", package: "swift-nio"),
        // ProxySDKTests' local TLS vendor.
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        // ZlibInflateTests: the proxy's inflater against listen's decompressor.
        .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
      ]),
    .testTarget(
      name: "TagscopeLiveTests",
      dependencies: [
        "TagscopeTestSupport",
        "TagscopeLive", "TagscopeServer", "TagscopeClient", "TagscopeClientTesting", "TaggingPlan",
        "TaggingPlanReports", "TagscopeInspector",
        "TagscopeRecording", "TagscopeTimeline",
      ]),
    .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
    // The system zlib, for request bodies inflated in one pass (TagscopeServer's BodyDecompression).
    .systemLibrary(name: "CTagscopeZlib", path: "Sources/CTagscopeZlib"),
    .target(
      name: "TagscopeUI",
      dependencies: ["AnalyticsHub", "TaggingPlan", "TagscopeRecording", "TagscopeTimeline", "CNcursesw"]),
    .testTarget(
      name: "TagscopeUITests",
      dependencies: [
        "TagscopeUI", "AnalyticsHub", "AnalyticsHubTesting", "TagscopeInspector", "TagscopeRecording",
        "TagscopeTimeline", "TaggingPlan", "TaggingPlanReports", "TagscopeLive",
        "PodcastDemo",
      ],
      exclude: ["Goldens"]),
  ],
  swiftLanguageModes: [.v6]
)
