import ArgumentParser
import TagscopeVendors

/// `tagscope listen`: apps (RemoteSink) and existing analytics SDKs stream into the debugger.
struct Listen: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "listen",
    abstract: "Receive records from apps (RemoteSink) and from analytics SDKs pointed at this machine.",
    discussion: """
      One port takes both the native recording stream (JSON Lines over TCP: a header line, then \
      records) and the HTTP APIs of \(Vendors.sdkNames) (\(Vendors.endpoints.count) paths, \
      tagscope help listen lists them; their SDKs' settings requests are answered so the SDK \
      keeps sending here). Point an SDK's host at http://HOST:PORT. --log firebase FILE (or - for standard input) reads \
      Firebase Analytics' debug log as it is written (Xcode's console, log stream, adb logcat): each \
      event, screen view and user property it logs becomes a firebase record of its device, checked \
      like an SDK's call; the SDK's own events (origin auto) are recorded as automaticEvent. When \
      standard input ends (the device went, the finished log was read) listen says so, on standard \
      error or in the debugger's status line, and goes on serving apps and SDKs until a signal; \
      headless with --exit-on-eof it stops there instead, as on SIGTERM (summary, --junit and --json \
      reports written): what CI piping in a finished log wants. logcat times are the device's local \
      time, read in this machine's time zone (the year, which logcat omits, is this one). With --token, native clients must send {"token": "…"} in \
      their header line, and HTTP requests carry it as their SDK's key (Segment write key, \
      Amplitude or PostHog api_key, Mixpanel token, mParticle API key), as GA4's api_secret or a \
      token query parameter, or as Authorization: Bearer. SIGINT/SIGTERM close every connection \
      and flush the recording. \
      Tests ask what arrived through the query API on the same port (/tagscope/v1/summary, records, \
      violations, coverage, wait, reset; the OpenAPI document at /tagscope/v1/openapi.json), \
      guarded by --token as Authorization: Bearer. The query API answers no web page: a request with \
      an Origin header is refused (403) unless --cors-origin names that origin, and so is a Host \
      header other than localhost, 127.0.0.1, [::1] or the --bind address (DNS rebinding); the SDK \
      endpoints answer any origin. --record continues an existing recording (never truncated: its \
      devices and SDK retry memory carry on), with the debugger or headless; --junit and --json \
      write a new file or replace a regular one; a symbolic link, FIFO, device or directory there \
      is refused.
      """
  )

  @OptionGroup var session: ListenArguments

  func run() async throws { try await session.run(proxy: nil) }
}
