/// One `key = value` of a git config file, with the section it belongs to and where it stands.
struct GitConfigEntry: Equatable {
    /// Lower-cased section name, e.g. "submodule".
    var section: String
    /// The subsection exactly as written (case-sensitive), e.g. the submodule's name.
    var subsection: String?
    /// Lower-cased variable name.
    var key: String
    /// The value with quotes and escapes resolved; a key without `=` is "true".
    var value: String
    var line: Int
    var column: Int
}

/// A section header of a git config file, with the line it starts on.
struct GitConfigSection: Equatable {
    var section: String
    var subsection: String?
    var line: Int
}

/// Reads git's config format (`.gitmodules`) the way git does, keeping the line of every entry; a syntax error names line and column.
struct GitConfigParser {
    struct SyntaxError: Error {
        var message: String
        var line: Int
        var column: Int
    }

    private(set) var sections: [GitConfigSection] = []
    private(set) var entries: [GitConfigEntry] = []

    init(_ text: String) throws(SyntaxError) {
        var current: GitConfigSection?
        let physical = SourceText(text).lines
        var index = 0
        while index < physical.count {
            let lineNumber = index + 1
            var chars = Array(physical[index])
            index += 1
            var position = 0
            func skipSpaces() { while position < chars.count, chars[position] == " " || chars[position] == "\t" { position += 1 } }
            skipSpaces()
            if position == chars.count || chars[position] == "#" || chars[position] == ";" { continue }
            if chars[position] == "[" {
                let header = try Self.parseHeader(chars, from: position, line: lineNumber)
                current = GitConfigSection(section: header.section, subsection: header.subsection, line: lineNumber)
                sections.append(current!)
                position = header.end
                skipSpaces()
                if position < chars.count, chars[position] != "#", chars[position] != ";" {
                    // git allows `[section] key = value` on one line.
                    guard let section = current else { continue }
                    let rest = Array(chars[position...])
                    chars = rest
                    position = 0
                    try parseEntry(&chars, &position, physical: physical, index: &index, line: lineNumber, columnOffset: header.end, in: section)
                }
                continue
            }
            guard let section = current else {
                throw SyntaxError(message: "a variable outside any section", line: lineNumber, column: position + 1)
            }
            try parseEntry(&chars, &position, physical: physical, index: &index, line: lineNumber, columnOffset: 0, in: section)
        }
    }

    private mutating func parseEntry(_ chars: inout [Character], _ position: inout Int, physical: [String], index: inout Int, line: Int, columnOffset: Int, in section: GitConfigSection) throws(SyntaxError) {
        let keyStart = position
        guard chars[position].isASCII, chars[position].isLetter else {
            throw SyntaxError(message: "a variable name must start with a letter", line: line, column: columnOffset + position + 1)
        }
        while position < chars.count, chars[position].isASCII, chars[position].isLetter || chars[position].isNumber || chars[position] == "-" {
            position += 1
        }
        let key = String(chars[keyStart..<position]).lowercased()
        while position < chars.count, chars[position] == " " || chars[position] == "\t" { position += 1 }
        var value = "true"
        if position < chars.count, chars[position] != "#", chars[position] != ";" {
            guard chars[position] == "=" else {
                throw SyntaxError(message: "expected '=' after '\(key)'", line: line, column: columnOffset + position + 1)
            }
            position += 1
            value = try Self.parseValue(&chars, &position, physical: physical, index: &index, line: line)
        }
        entries.append(GitConfigEntry(section: section.section, subsection: section.subsection, key: key, value: value,
                                      line: line, column: columnOffset + keyStart + 1))
    }

    /// `[section "subsection"]` or the old `[section.subsection]`.
    private static func parseHeader(_ chars: [Character], from start: Int, line: Int) throws(SyntaxError) -> (section: String, subsection: String?, end: Int) {
        var position = start + 1
        var name = ""
        while position < chars.count, chars[position].isASCII, chars[position].isLetter || chars[position].isNumber || "-.".contains(chars[position]) {
            name.append(chars[position])
            position += 1
        }
        guard !name.isEmpty else { throw SyntaxError(message: "expected a section name after '['", line: line, column: position + 1) }
        var subsection: String?
        if position < chars.count, chars[position] == " " || chars[position] == "\t" {
            while position < chars.count, chars[position] == " " || chars[position] == "\t" { position += 1 }
            guard position < chars.count, chars[position] == "\"" else {
                throw SyntaxError(message: "expected '\"' to start the subsection name", line: line, column: position + 1)
            }
            position += 1
            var text = ""
            while true {
                guard position < chars.count else { throw SyntaxError(message: "unterminated subsection name", line: line, column: position + 1) }
                let c = chars[position]
                if c == "\"" { position += 1; break }
                if c == "\\", position + 1 < chars.count { position += 1 }
                text.append(chars[position])
                position += 1
            }
            subsection = text
        } else if let dot = name.firstIndex(of: ".") {
            subsection = String(name[name.index(after: dot)...])
            name = String(name[..<dot])
        }
        guard position < chars.count, chars[position] == "]" else {
            throw SyntaxError(message: "expected ']' to close the section header", line: line, column: position + 1)
        }
        return (name.lowercased(), subsection, position + 1)
    }

    /// A value: quotes group, `\"` `\\` `\n` `\t` `\b` escape, `#` or `;` outside quotes starts a comment, `\` at the end continues the line.
    private static func parseValue(_ chars: inout [Character], _ position: inout Int, physical: [String], index: inout Int, line: Int) throws(SyntaxError) -> String {
        var value = ""
        var pendingSpace = ""
        var quoted = false
        var started = false
        while true {
            if position >= chars.count {
                if quoted { throw SyntaxError(message: "unterminated quoted value", line: line, column: position + 1) }
                break
            }
            let c = chars[position]
            position += 1
            if c == "\\" {
                guard position < chars.count else {
                    // Continuation: the value goes on on the next physical line.
                    guard index < physical.count else { break }
                    chars = Array(physical[index])
                    index += 1
                    position = 0
                    continue
                }
                let escaped = chars[position]
                position += 1
                value += pendingSpace
                pendingSpace = ""
                switch escaped {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "b": if !value.isEmpty { value.removeLast() }
                case "\"", "\\": value.append(escaped)
                default: throw SyntaxError(message: "invalid escape '\\\(escaped)'", line: line, column: position - 1)
                }
                started = true
                continue
            }
            if c == "\"" { quoted.toggle(); started = true; continue }
            if !quoted, c == "#" || c == ";" { break }
            if !quoted, c == " " || c == "\t" {
                if started { pendingSpace.append(c) }
                continue
            }
            value += pendingSpace
            pendingSpace = ""
            value.append(c)
            started = true
        }
        return value
    }
}
