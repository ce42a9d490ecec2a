/// Where a declared dependency comes from, as far as the spec file says.
public enum DependencyOrigin: String, Sendable, Hashable {
    /// A pod resolved through CocoaPods sources (podspec, podspec.json, Podfile).
    case cocoapods
    /// A Cartfile `github "org/Repo"` line.
    case github
    /// A git repository by URL (Cartfile `git`, Podfile `:git`, Package.swift `url:`).
    case git
    /// A Cartfile `binary "url"` line.
    case binary
    /// A SwiftPM registry package (`.package(id:)`).
    case registry
    /// A local directory (Package.swift `path:`, Podfile `:path`).
    case path
    /// A Podfile `:podspec` location.
    case podspec
}
