import AnalyticsHub
import Foundation

/// Adobe requests as the Adobe mobile SDKs send them, from the SDKs' own test strings.
enum AdobeWireFixtures {
  /// A trackAction hit, verbatim: adobe/aepsdk-analytics-android @
  /// c9e67af6147c1d2b215e8dd54c3bc6eb6abd50a5,
  /// `code/analytics/src/test/java/com/adobe/marketing/mobile/analytics/internal/ContextDataUtilTests.kt`
  /// (line 431).
  static let actionHit =
    "ndh=1&ce=UTF-8&c.&a.&action=testAction&.a&k1=v1&k2=v2&.c&t=00%2F00%2F0000%2000%3A00%3A00%200%20420"
    + "&pe=lnk_o&pev2=AMACTION%3AtestAction&aamb=blob&mid=mid&aamlh=lochint&cp=foreground&ts=1669845066"

  /// A Lifecycle hit (the SDK's own), verbatim: same commit,
  /// `code/analytics/src/test/java/com/adobe/marketing/mobile/analytics/internal/AnalyticsHitProcessorTests.kt`
  /// (line 143).
  static let lifecycleHit =
    "ndh=1&pe=lnk_o&pev2=ADBINTERNAL%3ALifecycle&pageName=My%20Application%201.0%20%281%29"
    + "&t=00%2F00%2F0000%2000%3A00%3A00%200%20360&ts=1432159549&c.&a.&DeviceName=SAMSUNG-SGH-I337"
    + "&Resolution=1080x1920&OSVersion=Android%204.3&CarrierName=&internalaction=Lifecycle"
    + "&AppID=My%20Application%201.0%20%281%29&Launches=1&InstallEvent=InstallEvent&DayOfWeek=4"
    + "&InstallDate=5%2F20%2F2015&LaunchEvent=LaunchEvent&DailyEngUserEvent=DailyEngUserEvent"
    + "&RunMode=Application&HourOfDay=16&MonthlyEngUserEvent=MonthlyEngUserEvent&.a&.c"
    + "&mid=45872199741202307594993613744306256830&ce=UTF-8"

  /// The report suite path of an iOS hit (`IOS`, no wrapper `N`, Analytics 3.0.2, Core 3.1.0),
  /// as `AnalyticsHitProcessor` builds it.
  static let hitPath = "/b/ss/acmersid/0/IOSN030002030100/s42715861"

  /// An Edge `interact` body with the fields aepsdk-edge-ios's functional test
  /// `testSendEvent_withXDMDataAndCustomData_sendsExEdgeNetworkRequest`
  /// (`Tests/FunctionalTests/EdgeFunctionalTests.swift`) asserts, one by one (its 20 flattened
  /// keys; the ids, time and version filled in): an event without `eventType`.
  static let edgeInteract = """
    {"events":[{"xdm":{"_id":"0b1a7c2e-4d3f-4a8b-9c6d-1e2f3a4b5c6d","timestamp":"2026-11-29T09:00:00.000Z",\
    "testString":"xdm"},"data":{"testDataString":"stringValue","testDataInt":101,"testDataBool":true,\
    "testDataDouble":13.66,"testDataArray":["arrayElem1",2,true],"testDataDictionary":{"key":"val"}}}],\
    "meta":{"konductorConfig":{"streaming":{"enabled":true,"recordSeparator":"\\u0000","lineFeed":"\\n"}}},\
    "xdm":{"identityMap":{"ECID":[{"id":"29068398647607325310376254630528178721","authenticatedState":"ambiguous",\
    "primary":false}]},"implementationDetails":{"name":"https://ns.adobe.com/experience/mobilesdk/ios",\
    "version":"5.0.0+5.0.0","environment":"app"}}}
    """

  /// Two events with an `eventType`, the request shaped as aepsdk-edge-android's `RequestBuilder`
  /// writes it (@ f607561cf7301e22deaabdcdf838844127e52186), with a signed-in user in the
  /// identity map (the Edge Identity extension's `updateIdentities`).
  static let edgeTwoEvents = """
    {"events":[{"xdm":{"_id":"e-1","timestamp":"2026-11-29T09:00:01.000Z","eventType":"web.webpagedetails.pageViews",\
    "web":{"webPageDetails":{"name":"podcasts"}}}},{"xdm":{"_id":"e-2","timestamp":"2026-11-29T09:00:02.000Z",\
    "eventType":"commerce.purchases","commerce":{"purchases":{"value":1}}},"data":{"podcast_title":"Swift by Sundell"}}],\
    "xdm":{"identityMap":{"ECID":[{"id":"ecid-7","authenticatedState":"ambiguous","primary":false}],\
    "Email":[{"id":"user@example.com","authenticatedState":"authenticated","primary":false}]}}}
    """

  /// The hit the Analytics extension sends for `call` (`trackState`/`trackAction` with string
  /// context data), as `AnalyticsExtension.processAnalyticsVars`/`ContextData` and
  /// `ContextDataUtil.serializeToQueryString` build it (keys in sorted order; the SDK's map order).
  static func hit(method: String, name: String, contextData: [String: String], ecid: String, time: Int)
    -> String
  {
    var context = contextData
    var variables: [(String, String)] = []
    if method == "trackAction" {
      context["a.action"] = name
      variables = [("pe", "lnk_o"), ("pev2", "AMACTION:" + name), ("pageName", "Podcasts 1.0 (1)")]
    } else {
      variables = [("pageName", name)]
    }
    var body = "ndh=1&ce=UTF-8&c." + serialize(tree(context)) + "&.c"
    body += "&t=00%2F00%2F0000%2000%3A00%3A00%200%20-60"
    for (key, value) in variables { body += "&\(key)=\(encode(value))" }
    body += "&mid=\(ecid)&cp=foreground&ts=\(time)"
    return body
  }

  /// A context data tree: a key's dots are levels.
  private final class Node {
    var value: String?
    var children: [String: Node] = [:]
  }

  private static func tree(_ data: [String: String]) -> Node {
    let root = Node()
    for (key, value) in data {
      var node = root
      for part in key.split(separator: ".").map(String.init) {
        if node.children[part] == nil { node.children[part] = Node() }
        node = node.children[part]!
      }
      node.value = value
    }
    return root
  }

  private static func serialize(_ node: Node) -> String {
    var text = ""
    for (key, child) in node.children.sorted(by: { $0.key < $1.key }) {
      if let value = child.value { text += "&\(encode(key))=\(encode(value))" }
      if !child.children.isEmpty { text += "&\(encode(key))." + serialize(child) + "&.\(encode(key))" }
    }
    return text
  }

  /// `ContextDataUtil`'s URL encoding: unreserved characters kept, every other byte `%XX`.
  static func encode(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      let unreserved =
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        || "-._~".utf8.contains(byte)
      out += unreserved ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
    }
    return out
  }
}
