// swift-tools-version:{{swift_tools_version}}
import PackageDescription

// Protocols and value types only: other modules depend on this, never on {{name}} itself.
let package = Package(
    name: "{{module}}",
    products: [
        .library(name: "{{module}}", targets: ["{{module}}"]),
    ],
    targets: [
        // Its version guard (written by `modkit guard` into {{generated_dir}}/) is compiled into it.
        .target(
            name: "{{module}}",
            path: ".",
            exclude: ["README.md", "CHANGELOG.md", "VERSION", "{{generated_dir}}/{{module}}Version.h"],
            sources: ["Sources/{{module}}", "{{generated_dir}}/{{module}}Version.swift"]
        ),
    ]
)
