extension Vendor {
  /// Batch: the in-app provider (codegen writes its calls as `CallDescription`s). Its SDKs are
  /// public (BatchLabs/Batch-Android-SDK, `core/WebserviceCryptor.java`, `core/EASCryptor.java`),
  /// but they encrypt every request body with AES under keys built into the SDK, whose licence
  /// allows its use to Batch's customers only: the proxy tunnels `*.batch.com` untouched.
  public static let batch = Vendor(
    id: "batch", name: "Batch", paths: [.inApp],
    wireNote:
      "Not decoded: its SDK encrypts every request body (AES, with keys built into the SDK), so *.batch.com is tunnelled; watch Batch through the in-app hub."
  )
}
