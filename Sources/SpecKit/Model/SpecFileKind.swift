/// The kinds of spec files whose dependency requirements SpecKit reads and rewrites.
public enum SpecFileKind: String, Sendable, Hashable, CaseIterable {
    /// A CocoaPods `*.podspec` written in the Ruby DSL.
    case podspec
    /// A CocoaPods `*.podspec.json`.
    case podspecJSON
    /// A CocoaPods `Podfile`.
    case podfile
    /// A SwiftPM `Package.swift` (or `Package@swift-X.Y.swift`).
    case packageSwift
    /// A Carthage `Cartfile` or `Cartfile.private`.
    case cartfile

    /// Recognises a spec file by its file name (the last path component), or returns nil.
    public init?(fileName: String) {
        guard let format = SpecFormat.format(forFileName: fileName) else { return nil }
        self = format.kind
    }
}
