/// Warnings of the same kind — the same message but for the names and values quoted in it — so an import of a
/// thousand projects prints one line per kind instead of one per project.
public enum WarningKinds {
    /// The warnings grouped by kind, each group in its original order, groups in the order of their first warning.
    public static func group(_ warnings: [Diagnostic]) -> [[Diagnostic]] {
        var order: [String] = []
        var groups: [String: [Diagnostic]] = [:]
        for warning in warnings {
            let key = kind(of: warning.message)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(warning)
        }
        return order.map { groups[$0]! }
    }

    /// The message with every quoted part ('…' or "…") blanked: `project 'a' is …` and `project 'b' is …` are one kind.
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
                if (character == "'" || character == "\""), !previous.isLetter { quote = character }
            }
        }
        return result
    }
}
