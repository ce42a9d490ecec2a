/// Words a module name cannot be: it becomes a Swift module and type name and an Objective-C / C identifier (the version guard).
enum ReservedWords {
    static let swift: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await",
        "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type", "Protocol", "_", "Swift", "Foundation",
    ]
    static let objectiveC: Set<String> = [
        "auto", "char", "const", "double", "extern", "float", "goto", "inline", "int", "long", "register", "restrict", "short",
        "signed", "sizeof", "typedef", "union", "unsigned", "void", "volatile", "_Bool", "_Complex", "_Imaginary", "id", "Class",
        "SEL", "IMP", "BOOL", "YES", "NO", "NULL", "nil", "Nil", "bool", "NSObject", "instancetype",
    ]

    /// "a Swift keyword" or "an Objective-C keyword" when `name` is one (or a name the languages reserve), else nil.
    static func reservation(of name: String) -> String? {
        if swift.contains(name) { return "a Swift keyword or reserved name" }
        if objectiveC.contains(name) { return "an Objective-C or C keyword or reserved name" }
        return nil
    }
}
