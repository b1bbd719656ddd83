/// What `tagscope listen` serves on its port, read from the router's own tables, for
/// `tagscope help listen`.
public enum ListenEndpoints {
  /// The SDK event paths with the SDK that sends each (``EndpointRouter``'s table), then mParticle's
  /// web and mobile SDK paths, which hold their key, and its IDSync paths.
  public static var eventPaths: [(path: String, summary: String)] {
    EndpointRouter.paths.map { ($0.path, $0.summary) } + MParticleEndpoint.webPaths
      + MParticleNativeEndpoint.paths + MParticleIdentityEndpoint.paths.filter { $0.path != "/v1/identify" }
  }

  /// The query API's routes: method, path.
  public static var queryRoutes: [(method: String, path: String)] {
    APIRoute.allCases.map { ($0.method, $0.path) }
  }
}
