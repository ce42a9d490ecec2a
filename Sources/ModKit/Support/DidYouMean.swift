import YAMLKit

/// Suggestions for misspelt names; the schema reader in YAMLKit and the commands share one implementation.
public typealias DidYouMean = YAMLKit.DidYouMean

/// Text escaped for a string literal of one target language; templates, generated files and the man page share it.
public typealias StringEscaping = YAMLKit.StringEscaping
