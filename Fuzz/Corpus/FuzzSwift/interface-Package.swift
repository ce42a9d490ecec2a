// swift-tools-version:{{swift_tools_version}}
import PackageDescription

// The implementation of {{name}}Interface.
let package = Package(
    name: "{{name}}",
    products: [
        .library(name: "{{name}}", targets: ["{{name}}"]),
    ],
    dependencies: [
        .package(path: "../{{name}}Interface"),
    ],
    targets: [
        // Its version guard (written by `modkit guard` into {{generated_dir}}/) is compiled into it.
        .target(
            name: "{{name}}",
            dependencies: [.product(name: "{{name}}Interface", package: "{{name}}Interface")],
            path: ".",
            exclude: ["Tests", "README.md", "CHANGELOG.md", "VERSION", "{{generated_dir}}/{{name}}Version.h"],
            sources: ["Sources/{{name}}", "{{generated_dir}}/{{name}}Version.swift"]
        ),
        .testTarget(name: "{{name}}Tests", dependencies: ["{{name}}"]),
    ]
)
