/// The entry point for reading the dependency requirements of any spec file.
public enum SpecReader {
    /// Reads every declared requirement of `text`, a file of the given kind, in file order.
    ///
    /// Ruby, Swift and Cartfile readers are tolerant and read what they understand;
    /// a `*.podspec.json` that is not valid JSON throws.
    public static func read(_ text: String, kind: SpecFileKind) throws(SpecReadError) -> [Requirement] {
        let source = SourceText(text)
        switch kind {
        case .podspec: return PodspecReader.read(source)
        case .podspecJSON: return try PodspecJSONReader.read(source)
        case .podfile: return PodfileReader.read(source)
        case .packageSwift: return PackageSwiftReader.read(source)
        case .cartfile: return CartfileReader.read(source)
        }
    }
}
