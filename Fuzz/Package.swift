// swift-tools-version:5.4
// libFuzzer targets for modkit's readers of untrusted files. A package of its own, so the main build never sees the
// sanitizer flags; scripts/fuzz.sh builds it with `-sanitize=fuzzer,address` and runs every target.
import PackageDescription

let modkit: Target.Dependency = .product(name: "ModKit", package: "modkit")
// Tools version 5.4: newer versions rename an executable's entry point to <Target>_main, and libFuzzer must provide main.

let package = Package(
    name: "modkit-fuzz",
    dependencies: [.package(name: "modkit", path: "..")],
    targets: [
        // YAML documents, snapshot files, template.yml, west.yml and .repos imports, and the scalar emitter's round trip.
        .executableTarget(name: "FuzzYAML", dependencies: [modkit]),
        // modkit.yml through the manifest decoder, and module entries appended to what decodes.
        .executableTarget(name: "FuzzManifest", dependencies: [modkit]),
        // Podspecs and Podfiles (the Ruby lexer).
        .executableTarget(name: "FuzzRuby", dependencies: [modkit]),
        // Package.swift (the Swift lexer).
        .executableTarget(name: "FuzzSwift", dependencies: [modkit]),
        // *.podspec.json (the JSON scanner).
        .executableTarget(name: "FuzzJSON", dependencies: [modkit]),
        // Repo manifests (the XML reader).
        .executableTarget(name: "FuzzXML", dependencies: [modkit]),
        // .git/index files (the cache-tree reader status trusts).
        .executableTarget(name: "FuzzIndex", dependencies: [modkit]),
        // Xcode project.pbxproj files (the old-style plist scanner develop runs on every project).
        .executableTarget(name: "FuzzPbxproj", dependencies: [modkit]),
    ]
)
