import YAMLKit

/// Suggestions for misspelt names; the schema reader in YAMLKit and the commands share one implementation.
public typealias DidYouMean = YAMLKit.DidYouMean
