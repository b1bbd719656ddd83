import Foundation

/// What `tagscope proxy ca` prints: where the CA is and, for each kind of device, how to trust it
/// and how to send the device's traffic through the proxy.
public enum ProxyTrustGuide {
  /// Where the guide sends the reader for what it does not say itself: commands or help pages
  /// (`tagscope help proxy`), given by the command line, which knows which page holds what.
  public struct Pointers: Sendable {
    /// The page listing the hosts the proxy decrypts.
    public var hosts: String
    /// The page on reading Firebase's debug log.
    public var firebaseLog: String

    /// Pointers to `hosts` and `firebaseLog`.
    public init(hosts: String, firebaseLog: String) {
      self.hosts = hosts
      self.firebaseLog = firebaseLog
    }
  }

  /// The guide for `authority`, with the proxy on `port`; `pointers` name where the hosts and
  /// Firebase's log are explained (both in `tagscope help proxy` unless said otherwise).
  public static func text(
    authority: CertificateAuthority, port: Int,
    pointers: Pointers = Pointers(hosts: "tagscope help proxy", firebaseLog: "tagscope help proxy")
  ) -> String {
    let folder =
      authority.directory.standardizedFileURL.path
        == ProxyConfiguration.defaultAuthorityDirectory.standardizedFileURL.path
      ? "the user's config directory; --ca-dir DIR for another" : "given by --ca-dir"
    let pem = authority.certificateFile.path
    let android = authority.directory.appendingPathComponent("android").appendingPathComponent(
      authority.androidSystemFileName
    ).path
    let hash = authority.androidSystemFileName
    return """
      Tagscope proxy CA, in \(authority.directory.path) (\(folder))
        certificate  \(pem)
        key          \(authority.directory.appendingPathComponent("ca-key.pem").path) (yours alone: never share it)
        Android name \(android)

      The proxy decrypts only the analytics hosts it knows (see `\(pointers.hosts)`); every
      other host is tunnelled untouched. Trust this CA on test devices only.

      iOS Simulator (on this Mac)
        1. Trust the CA in the booted simulator:
             xcrun simctl keychain booted add-root-cert "\(pem)"
        2. The simulator uses the Mac's proxy settings: run `tagscope proxy` and set
             networksetup -setwebproxy "Wi-Fi" 127.0.0.1 \(port)
             networksetup -setsecurewebproxy "Wi-Fi" 127.0.0.1 \(port)
           (System Settings > Network > Wi-Fi > Details > Proxies does the same; undo with
             networksetup -setwebproxystate "Wi-Fi" off
             networksetup -setsecurewebproxystate "Wi-Fi" off)

      iPhone or iPad (same Wi-Fi as this Mac)
        1. Run `tagscope proxy --bind 0.0.0.0 --token SECRET` (SECRET is the proxy's password;
           without a token a proxy on the network would relay for anyone, so it does not start).
        2. Settings > Wi-Fi > (i) of the network > Configure Proxy > Manual:
           Server = this Mac's address (ipconfig getifaddr en0), Port = \(port),
           Authentication on, any user name, Password = SECRET.
        3. In Safari on the device open http://MAC-ADDRESS:\(port)/ca.pem, allow the profile, then
           Settings > General > VPN & Device Management > the profile > Install.
        4. Settings > General > About > Certificate Trust Settings: turn on full trust for
           "\(authority.commonName)".

      Android emulator
        Apps trust user CAs only if their network_security_config says so (Android 7 and later).
        A debug build you can change: add to res/xml/network_security_config.xml
             <network-security-config><debug-overrides><trust-anchors>
               <certificates src="user"/></trust-anchors></debug-overrides></network-security-config>
           with android:networkSecurityConfig="@xml/network_security_config" in the manifest, then
             adb push "\(pem)" /sdcard/Download/tagscope-ca.crt
           and Settings > Security > Encryption & credentials > Install a certificate > CA certificate.
        A build you cannot change (release, store): add the CA to the system store of an emulator
        image without Google Play, Android 13 or earlier:
             emulator -avd NAME -writable-system
             adb root && adb remount
             adb push "\(android)" /system/etc/security/cacerts/\(hash)
             adb shell chmod 644 /system/etc/security/cacerts/\(hash) && adb reboot
        Send the emulator's traffic through the proxy (10.0.2.2 is this machine, seen from it):
             adb shell settings put global http_proxy 10.0.2.2:\(port)
           and undo with: adb shell settings put global http_proxy :0

      Android device
        Android's proxy settings send no password, so a proxy on the network could not ask for a
        --token: keep the proxy on loopback and reach it over USB instead.
        1. Run `tagscope proxy` (loopback only), connect the device by USB, then
             adb reverse tcp:\(port) tcp:\(port)
             adb shell settings put global http_proxy 127.0.0.1:\(port)
           and undo with: adb shell settings put global http_proxy :0 && adb reverse --remove-all
        2. Install the CA as above (open http://127.0.0.1:\(port)/ca.pem in the device's browser).
        Without USB, on a network you trust only: `tagscope proxy --bind 0.0.0.0 --allow-no-token`
        (anyone on that network can then relay through the proxy: stop it when done); Settings >
        Wi-Fi > the network > Proxy > Manual: this machine's address, port \(port). A client that
        can send a proxy password (an iPhone, curl, an HTTP library) uses --token SECRET instead.

      Firebase Analytics' own uploads (app-measurement.com) are decoded, but on Android the SDK
      ignores the system proxy: route the emulator's whole network with emulator -http-proxy, or
      read its debug log instead (\(pointers.firebaseLog)).
      """
  }

  /// Writes the root under the name Android's system store needs (`android/HASH.0`) beside the
  /// CA (``CertificateAuthority/writeAndroidCopy()``).
  public static func writeAndroidCopy(of authority: CertificateAuthority) throws {
    try authority.writeAndroidCopy()
  }
}
