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
        let name = fileName.split(separator: "/").last.map(String.init) ?? fileName
        if name.hasSuffix(".podspec.json") {
            self = .podspecJSON
        } else if name.hasSuffix(".podspec") {
            self = .podspec
        } else if name == "Podfile" || name.hasSuffix(".podfile") {
            self = .podfile
        } else if name == "Package.swift" || (name.hasPrefix("Package@swift-") && name.hasSuffix(".swift")) {
            self = .packageSwift
        } else if name == "Cartfile" || name == "Cartfile.private" {
            self = .cartfile
        } else {
            return nil
        }
    }
}
