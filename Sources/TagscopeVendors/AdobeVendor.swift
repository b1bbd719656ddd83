extension Vendor {
  /// Adobe Analytics: the in-app provider (codegen writes its calls as `CallDescription`s).
  public static let adobe = Vendor(
    id: "adobe", name: "Adobe Analytics", aliases: ["adobe-analytics"], paths: [.inApp])
}
