// swift-tools-version:{{swift_tools_version}}
import PackageDescription

let package = Package(
    name: "{{name}}",
    products: [
        .library(name: "{{name}}", targets: ["{{name}}"]),
    ],
    targets: [
        // The library; its version guard (written by `modkit guard` into {{generated_dir}}/) is compiled into it.
        .target(
            name: "{{name}}",
            path: ".",
            exclude: ["Tests", "README.md", "CHANGELOG.md", "VERSION", "{{generated_dir}}/{{name}}Version.h"],
            sources: ["Sources/{{name}}", "{{generated_dir}}/{{name}}Version.swift"]
        ),
        .testTarget(name: "{{name}}Tests", dependencies: ["{{name}}"]),
    ]
)
