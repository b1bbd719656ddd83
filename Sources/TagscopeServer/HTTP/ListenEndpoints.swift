import TagscopeVendors

/// What `tagscope listen` serves on its port, read from the router's own tables, for
/// `tagscope help listen`.
public enum ListenEndpoints {
  /// The SDK event paths with the SDK that sends each, from the vendor registry the router reads
  /// (``Vendors/endpoints``; `KEY` and `MPID` stand for what an SDK puts in the path).
  public static var eventPaths: [(path: String, summary: String)] {
    Vendors.endpoints.map { ($0.path, $0.summary) }
  }

  /// The query API's routes: method, path.
  public static var queryRoutes: [(method: String, path: String)] {
    APIRoute.allCases.map { ($0.method, $0.path) }
  }
}
