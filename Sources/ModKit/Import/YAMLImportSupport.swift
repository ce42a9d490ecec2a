import YAMLKit

/// A YAML input of an import (west.yml, .repos) read with YAMLKit's schema reader, as modkit.yml is: its problems
/// (errors and the warnings about what is not carried over) become the import's diagnostics, each at its line and column.
struct YAMLImportReader {
    let source: ImportSource
    let file: YAMLFileDiagnostics
    var schema = YAMLSchemaReader()

    init(_ source: ImportSource) {
        self.source = source
        file = YAMLFileDiagnostics(displayPath: source.displayPath, lines: source.lines)
    }

    /// The document's root node; a syntax error or an empty document is an input error at its position.
    func root(expecting what: String) throws(ManifestError) -> YAMLNode {
        let root: YAMLNode?
        do { root = try YAML.parse(source.text) } catch { throw ManifestError(diagnostics: [file.syntaxError(error)]) }
        guard let root else {
            throw ManifestError(diagnostics: [file.error("\(source.displayPath) is empty; expected \(what)", at: Mark(line: 1, column: 1, offset: 0))])
        }
        return root
    }

    /// An error that stops the import at once: the file is not the kind of file it should be.
    func fatal(_ message: String, at mark: Mark, hint: String? = nil) -> ManifestError {
        ManifestError(diagnostics: [file.error(message, at: mark, hint: hint)])
    }

    func location(_ mark: Mark) -> SourceLocation { file.location(mark) }

    /// An optional string: null is absent, an empty string is an error unless `emptyAllowed`.
    mutating func string(_ node: YAMLNode?, for key: String, emptyAllowed: Bool = false) -> String? {
        node.flatMap { schema.string($0, for: key, nullAllowed: true, emptyAllowed: emptyAllowed) }
    }

    /// The warnings, in file order; throws every error at once when there is one.
    func warnings() throws(ManifestError) -> [Diagnostic] {
        let diagnostics = file.diagnostics(schema)
        if schema.hasErrors { throw ManifestError(diagnostics: diagnostics.filter { $0.severity == .error }) }
        return diagnostics
    }
}
