import YAMLKit

/// Turns YAMLKit's problems into modkit's diagnostics: `file:line:col: error: …`, the quoted line, a caret, notes and hints.
struct YAMLFileDiagnostics {
    let displayPath: String
    let source: SourceText

    init(displayPath: String, text: String) {
        self.init(displayPath: displayPath, lines: SourceText(text))
    }

    init(displayPath: String, lines: SourceText) {
        self.displayPath = displayPath
        source = lines
    }

    func location(_ mark: Mark) -> SourceLocation { SourceLocation(file: displayPath, line: mark.line, column: mark.column) }

    func error(_ message: String, at mark: Mark, hint: String? = nil) -> Diagnostic {
        diagnostic(.error, message, at: mark, hint: hint)
    }

    func diagnostic(_ severity: Diagnostic.Severity, _ message: String, at mark: Mark, hint: String? = nil) -> Diagnostic {
        Diagnostic(severity: severity, message: message, location: location(mark), sourceLine: source.line(mark.line), hint: hint)
    }

    /// Every problem of a schema reader (errors and warnings alike), in file order.
    func diagnostics(_ reader: YAMLSchemaReader) -> [Diagnostic] {
        reader.problems.map { problem in
            var diagnostic = diagnostic(problem.severity == .error ? .error : .warning, problem.message, at: problem.mark, hint: problem.hint)
            if let note = problem.note {
                diagnostic.notes = [Diagnostic(severity: .note, message: note.message, location: location(note.mark), sourceLine: source.line(note.mark.line))]
            }
            return diagnostic
        }.inFileOrder
    }

    /// A syntax error of the file, with libyaml's context.
    func syntaxError(_ error: YAMLError) -> Diagnostic {
        let place = error.contextMark.map { " (\(error.context ?? "") started at line \($0.line))" } ?? ""
        return self.error("invalid YAML: \(error.message)\(place)", at: error.mark)
    }

    /// The file's bytes as text, or a diagnostic at the first byte that is not UTF-8.
    static func text(of bytes: [UInt8], displayPath: String) -> Result<String, Diagnostic> {
        do { return .success(try YAML.text(fromUTF8: bytes)) } catch {
            let lines = SourceText(String(decoding: bytes, as: UTF8.self))
            return .failure(.error("\(displayPath) is not valid UTF-8 text: \(error.message)",
                                   at: SourceLocation(file: displayPath, line: error.mark.line, column: error.mark.column),
                                   sourceLine: lines.line(error.mark.line)))
        }
    }
}
