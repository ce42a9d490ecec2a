// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "modkit",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "modkit", targets: ["modkit"]),
        .library(name: "ModKit", targets: ["ModKit"]),
    ],
    targets: [
        // C shim over libgit2 (apt libgit2-dev, brew libgit2); also wraps variadic calls Swift cannot import.
        .systemLibrary(
            name: "CLibgit2",
            pkgConfig: "libgit2",
            providers: [.apt(["libgit2-dev"]), .brew(["libgit2"])]
        ),
        // C shim over libyaml (apt libyaml-dev, brew libyaml).
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // Defers the certificate bundle an mbedTLS-backed libgit2 parses at start-up until a network operation needs it.
        .target(name: "CTrustDeferral"),
        // A read-only reference database in memory: the commits a fetch over an open connection offers as common history.
        .target(name: "CNegotiationRefdb", dependencies: ["CLibgit2"]),
        // Swift API over libgit2: repositories, clone/fetch/push, refs, tags, status. No C types in its API.
        .target(name: "GitKit", dependencies: ["CLibgit2", "CTrustDeferral", "CNegotiationRefdb"]),
        // YAML documents as Swift node trees that remember the line and column of every node.
        .target(name: "YAMLKit", dependencies: ["CYAML"]),
        // Spec files (podspec, Podfile, Package.swift, Cartfile, lock files): read requirements, rewrite them surgically.
        .target(name: "SpecKit"),
        // The modkit library: manifest, workspace operations, snapshots, specs, guards, scaffolding, release.
        .target(name: "ModKit", dependencies: ["GitKit", "YAMLKit", "SpecKit"]),
        // The command line: argument parsing, help, output, exit codes. Thin over ModKit.
        .target(name: "ModKitCLI", dependencies: ["ModKit", "GitKit", "YAMLKit"]),
        // The executable: a few lines that hand over to ModKitCLI.
        .executableTarget(name: "modkit", dependencies: ["ModKitCLI"]),

        .testTarget(name: "GitKitTests", dependencies: ["GitKit"]),
        .testTarget(name: "YAMLKitTests", dependencies: ["YAMLKit"]),
        .testTarget(name: "SpecKitTests", dependencies: ["SpecKit", "GitKit"], exclude: ["Golden", "Ruby"]),
        .testTarget(name: "ModKitTests", dependencies: ["ModKit", "GitKit"], exclude: ["GuardGolden", "ImportGolden", "ReleaseGolden", "ScaffoldGolden"]),
        .testTarget(name: "ModKitCLITests", dependencies: ["ModKitCLI"]),
        // Runs the built `modkit` binary against real repositories.
        .testTarget(name: "EndToEndTests", dependencies: ["modkit", "GitKit"], exclude: ["Support"]),
    ]
)
