/// The entry point for reading the dependency requirements of any spec file.
public enum SpecReader {
    /// Reads every declared requirement of a file's bytes, a file of the given kind, in file order.
    ///
    /// Ruby, Swift and Cartfile readers are tolerant and read what they understand;
    /// a `*.podspec.json` that is not valid JSON throws. Bytes are read, never decoded as a whole,
    /// so any ASCII-compatible encoding, a byte order mark and CRLF line endings read alike.
    public static func read(_ bytes: [UInt8], kind: SpecFileKind) throws(SpecReadError) -> [Requirement] {
        try SpecFormat.format(of: kind).requirements(SourceText(bytes: bytes))
    }

    /// Reads the requirements of UTF-8 text.
    public static func read(_ text: String, kind: SpecFileKind) throws(SpecReadError) -> [Requirement] {
        try read(Array(text.utf8), kind: kind)
    }

    /// Reads what a podspec or podspec.json declares about its own pod; nil for other formats or when it declares nothing.
    public static func declaration(_ bytes: [UInt8], kind: SpecFileKind) throws(SpecReadError) -> SpecDeclaration? {
        try SpecFormat.format(of: kind).declaration?(SourceText(bytes: bytes))
    }
}
