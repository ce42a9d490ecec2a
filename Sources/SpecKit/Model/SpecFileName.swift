/// The names of the spec and lock files other targets locate (to copy or restore their bytes, never to read them).
public enum SpecFileName {
    /// A CocoaPods Podfile.
    public static let podfile = "Podfile"
    /// A SwiftPM package manifest.
    public static let packageManifest = "Package.swift"
    /// SwiftPM's lock file, beside the manifest.
    public static let packageResolved = "Package.resolved"
}
