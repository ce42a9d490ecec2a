/// Warnings of the same kind — the same message but for the names and values quoted in it — so an import of a
/// thousand projects prints one line per kind instead of one per project (`Array<Diagnostic>.report` folds them).
public enum WarningKinds {
    /// The message with every quoted part ('…' or "…") blanked: `project 'a' is …` and `project 'b' is …` are one kind. An
    /// XML attribute (`sync-j="4"`) is blanked with its name, so ten thousand unknown attributes of one element are one kind.
    static func kind(of message: String) -> String {
        var result = ""
        var quote: Character?
        var previous: Character = " "
        for character in message {
            defer { previous = character }
            if let open = quote {
                if character == open {
                    quote = nil
                    result.append(character)
                }
            } else {
                result.append(character)
                // An apostrophe inside a word ("repo's") opens nothing.
                guard character == "'" || character == "\"", !previous.isLetter else { continue }
                quote = character
                if previous == "=" {
                    result.removeLast(2)
                    while let last = result.last, last.isLetter || last.isNumber || "-_:.".contains(last) { result.removeLast() }
                    result += "=" + String(character)
                }
            }
        }
        return result
    }
}
