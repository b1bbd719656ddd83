extension Vendor {
  /// Batch: the in-app provider (codegen writes its calls as `CallDescription`s).
  public static let batch = Vendor(id: "batch", name: "Batch", paths: [.inApp])
}
