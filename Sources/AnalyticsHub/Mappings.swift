/// Building a provider's mapping from parts: the app's own and its features'
/// (``FeatureEmbedding/lift(_:)``).
public enum Mappings {
  /// One mapping made of several: each tag goes to every part in order and their calls follow one
  /// another. A part that ignores a tag returns `[]` (seed 004's optional methods), so an app's
  /// mapping and its features' lifted mappings combine into the provider's one mapping.
  public static func combined<T: Taxonomy, Call: ProviderCall>(
    _ parts: Mapping<T, Call>...
  ) -> Mapping<T, Call> {
    combined(parts)
  }

  /// One mapping made of the `parts`, in order.
  public static func combined<T: Taxonomy, Call: ProviderCall>(
    _ parts: [Mapping<T, Call>]
  ) -> Mapping<T, Call> {
    { tag, context in
      // Usually one part maps a tag and the others ignore it: its calls are returned as they are.
      var calls: [Call] = []
      for part in parts {
        let more = part(tag, context)
        if more.isEmpty { continue }
        if calls.isEmpty { calls = more } else { calls.append(contentsOf: more) }
      }
      return calls
    }
  }
}
