import Foundation
import Testing

/// `modkit develop` on a real SwiftPM chain App → Feature → Core (git repositories with version tags served over
/// file://), built with `swift run`: the app runs the local, uncommitted Core, and `--off` gives back every byte.
@Suite struct DevelopSwiftPMEndToEndTests {
    /// A package repository `remotes/<name>.git` tagged 1.0.0; `dependency` is a url dependency `from: "1.0.0"`.
    private func makePackage(_ sandbox: Sandbox, _ name: String, dependency: String?, product: Bool, source: String) throws {
        let work = "src/\(name)"
        let dependencies = dependency.map { "[.package(url: \"file://\(sandbox.url("remotes/\($0).git").path)\", from: \"1.0.0\")]" } ?? "[]"
        let targetDependencies = dependency.map { "[.product(name: \"\($0)\", package: \"\($0.lowercased())\")]" } ?? "[]"
        let target = product ? ".executableTarget(name: \"\(name)\", dependencies: \(targetDependencies))"
                             : ".target(name: \"\(name)\", dependencies: \(targetDependencies))"
        let products = product ? "[]" : "[.library(name: \"\(name)\", targets: [\"\(name)\"])]"
        try sandbox.write("""
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "\(name)",
            products: \(products),
            dependencies: \(dependencies),
            targets: [\(target)]
        )

        """, to: "\(work)/Package.swift")
        try sandbox.write(source, to: "\(work)/Sources/\(name)/\(product ? "main" : name).swift")
        try sandbox.write(".build/\n/Packages/\n", to: "\(work)/.gitignore")
        try sandbox.git("init", "-q", "-b", "main", in: work)
        try sandbox.git("add", "-A", in: work)
        try sandbox.git("commit", "-qm", "\(name) 1.0.0", in: work)
        try sandbox.git("tag", "1.0.0", in: work)
        try sandbox.git("clone", "-q", "--bare", work, "remotes/\(name).git")
    }

    @Test func appRunsTheLocalCoreWhileDevelopedAndOffRestoresEveryByte() throws {
        let sandbox = try Sandbox()
        try makePackage(sandbox, "Core", dependency: nil, product: false, source: "public func greeting() -> String { \"Core 1.0.0\" }\n")
        try makePackage(sandbox, "Feature", dependency: "Core", product: false,
                        source: "import Core\npublic func feature() -> String { \"Feature with \" + greeting() }\n")
        try makePackage(sandbox, "App", dependency: "Feature", product: true, source: "import Feature\nprint(feature())\n")
        try sandbox.write("""
        version: 1
        workspace: Chain
        defaults:
          url-base: file://\(sandbox.url("remotes").path)
          revision: main
        modules:
          - { name: Core, url: Core.git, path: Libs/Core }
          - { name: Feature, url: Feature.git, path: Libs/Feature }
          - { name: App, url: App.git, path: App }

        """, to: "ws/modkit.yml")
        try sandbox.git("init", "-q", "-b", "main", in: "ws")
        let sync = try sandbox.modkit("sync", in: "ws")
        try #require(sync.status == 0, "\(sync)")

        // The app as released: it resolves Feature and Core from their tags; its Package.resolved is committed.
        let released = try sandbox.run("/usr/bin/env", ["swift", "run", "-q", "App"], in: sandbox.url("ws/App"))
        try #require(released.status == 0, "\(released)")
        #expect(released.out == "Feature with Core 1.0.0\n")
        // An Xcode project of the app that uses Feature as a remote package: Core reaches it through Feature's Package.swift.
        try sandbox.write(Sandbox.pbxproj(app: "AppUI", remotes: [("file://\(sandbox.url("remotes/Feature.git").path)", "Feature")]),
                          to: "ws/App/AppUI.xcodeproj/project.pbxproj")
        try sandbox.git("add", "Package.resolved", "AppUI.xcodeproj", in: "ws/App")
        try sandbox.git("commit", "-qm", "Resolved", in: "ws/App")
        let before = ["App/Package.swift", "App/Package.resolved", "Libs/Feature/Package.swift", "Libs/Core/Package.swift"]
            .reduce(into: [String: Data]()) { $0[$1] = sandbox.bytes("ws/\($1)") }
        #expect(sandbox.bytes("ws/Libs/Feature/Package.resolved") == nil)

        let develop = try sandbox.modkit("develop", "Core", in: "ws")
        try #require(develop.status == 0, "\(develop)")
        #expect(develop.out.contains("edit mode in App") && develop.out.contains("edit mode in Libs/Feature"), "\(develop.out)")
        try sandbox.write("public func greeting() -> String { \"Core, changed here\" }\n", to: "ws/Libs/Core/Sources/Core/Core.swift")
        let local = try sandbox.run("/usr/bin/env", ["swift", "run", "-q", "App"], in: sandbox.url("ws/App"))
        #expect(local.status == 0 && local.out == "Feature with Core, changed here\n", "\(local)")
        #expect(sandbox.bytes("ws/App/Package.swift") == before["App/Package.swift"], "Package.swift is never edited")
        #expect(try sandbox.workspaceFileRefs("ws/App/AppUI.modkit-develop.xcworkspace/contents.xcworkspacedata") == ["group:AppUI.xcodeproj", "group:../Libs/Core"])

        let off = try sandbox.modkit("develop", "--off", in: "ws")
        #expect(off.status == 0, "\(off)")
        for (path, bytes) in before { #expect(sandbox.bytes("ws/\(path)") == bytes, "\(path) differs after --off") }
        #expect(sandbox.bytes("ws/Libs/Feature/Package.resolved") == nil, "the Package.resolved SwiftPM created is removed")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/App/Packages").path))
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/App/AppUI.modkit-develop.xcworkspace").path))
        let back = try sandbox.run("/usr/bin/env", ["swift", "run", "-q", "App"], in: sandbox.url("ws/App"))
        #expect(back.status == 0 && back.out == "Feature with Core 1.0.0\n", "\(back)")
        #expect(try sandbox.git("status", "--porcelain", in: "ws/App").isEmpty)
    }
}
