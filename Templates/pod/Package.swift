// swift-tools-version:5.9
import PackageDescription

// The same pod for Swift Package Manager users; the version lives in {{name}}.podspec.
let package = Package(
    name: "{{name}}",
    platforms: [.iOS(.v13)],
    products: [
        .library(name: "{{name}}", targets: ["{{name}}"]),
    ],
    targets: [
        // The library; its version guard (written by `modkit guard` into {{generated_dir}}/) is compiled into it.
        .target(
            name: "{{name}}",
            path: ".",
            exclude: ["Tests", "README.md", "CHANGELOG.md", "LICENSE", "{{name}}.podspec", "{{generated_dir}}/{{name_identifier}}Version.h"],
            sources: ["Sources/{{name}}", "{{generated_dir}}/{{name_identifier}}Version.swift"]
        ),
        .testTarget(name: "{{name}}Tests", dependencies: ["{{name}}"]),
    ]
)
