import Foundation
import Testing

/// `modkit guard` on a module with several podspecs (firebase-ios-sdk's layout): each pod is guarded on its own, and the real
/// compilers refuse a pod built against another version of a sibling pod, and a dependent built against another version of a pod.
@Suite struct PodGuardEndToEndTests {
    /// `firebase` holds FirebaseCoreInternal, FirebaseCore (on FirebaseCoreInternal) and FirebaseCoreExtension (on FirebaseCore),
    /// each a podspec and a target of the module's Package.swift; `App` depends on the FirebaseCore pod.
    func makeWorkspace() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("""
        version: 1
        workspace: Pods
        defaults:
          generated-dir: Sources/{module}/Generated
        modules:
          - name: firebase
            path: firebase
          - name: App
            path: App

        """, to: "ws/modkit.yml")
        let pods = [("FirebaseCoreInternal", [String]()), ("FirebaseCore", ["FirebaseCoreInternal"]), ("FirebaseCoreExtension", ["FirebaseCore"])]
        for (pod, dependencies) in pods {
            try sandbox.write(Self.podspec(pod, "12.19.0", dependencies), to: "ws/firebase/\(pod).podspec")
            let imports = dependencies.map { "import \($0)\n" }.joined()
            try sandbox.write("\(imports)public func \(pod.prefix(1).lowercased() + pod.dropFirst())Name() -> String { \"\(pod)\" }\n",
                              to: "ws/firebase/Sources/\(pod)/\(pod).swift")
        }
        try sandbox.write("""
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(
            name: "firebase",
            products: [.library(name: "FirebaseCore", targets: ["FirebaseCore"]), .library(name: "FirebaseCoreExtension", targets: ["FirebaseCoreExtension"])],
            targets: [
                .target(name: "FirebaseCoreInternal"),
                .target(name: "FirebaseCore", dependencies: ["FirebaseCoreInternal"]),
                .target(name: "FirebaseCoreExtension", dependencies: ["FirebaseCore"]),
            ]
        )

        """, to: "ws/firebase/Package.swift")
        try sandbox.write(Self.podspec("App", "1.0.0", ["FirebaseCore"]), to: "ws/App/App.podspec")
        try sandbox.write("""
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(
            name: "App",
            dependencies: [.package(path: "../firebase")],
            targets: [.target(name: "App", dependencies: [.product(name: "FirebaseCore", package: "firebase"),
                                                          .product(name: "FirebaseCoreExtension", package: "firebase")])]
        )

        """, to: "ws/App/Package.swift")
        try sandbox.write("import FirebaseCore\nimport FirebaseCoreExtension\npublic func appName() -> String { firebaseCoreName() + firebaseCoreExtensionName() }\n",
                          to: "ws/App/Sources/App/App.swift")
        return sandbox
    }

    static func podspec(_ name: String, _ version: String, _ dependencies: [String]) -> String {
        "Pod::Spec.new do |s|\n  s.name = '\(name)'\n  s.version = '\(version)'\n"
            + dependencies.map { "  s.dependency '\($0)', '~> 12.19.0'\n" }.joined() + "end\n"
    }

    /// `swift build` of App (which builds the three pods' targets), incremental in one scratch folder.
    func build(_ sandbox: Sandbox) throws -> ProcessResult {
        try sandbox.run("/usr/bin/env", ["swift", "build", "--package-path", sandbox.url("ws/App").path, "--scratch-path", sandbox.url("scratch").path],
                        in: sandbox.url("ws/App"))
    }

    /// `cc -fsyntax-only` of a C file including `header`, with every pod's and App's guard folder on the include path.
    func compileC(_ sandbox: Sandbox, including header: String) throws -> ProcessResult {
        try sandbox.write("#include \"\(header)\"\nint main(void) { return 0; }\n", to: "c/main.c")
        let folders = ["firebase/Sources/FirebaseCoreInternal", "firebase/Sources/FirebaseCore", "firebase/Sources/FirebaseCoreExtension", "App/Sources/App"]
        let includes = folders.flatMap { ["-I", sandbox.url("ws/\($0)/Generated").path] }
        return try sandbox.run("/usr/bin/env", ["cc", "-fsyntax-only", "-Wall", "-Werror"] + includes + [sandbox.url("c/main.c").path], in: sandbox.url("c"))
    }

    func guardFile(_ pod: String, _ ext: String) -> String { "ws/firebase/Sources/\(pod)/Generated/\(pod)Version.\(ext)" }

    @Test(.timeLimit(.minutes(10)))
    func everyPodIsGuardedOnItsOwnAndTheCompilerRefusesAMismatchedSibling() throws {
        let sandbox = try makeWorkspace()
        let first = try sandbox.modkit("guard", in: "ws")
        #expect(first.status == 0, "\(first.out)\(first.err)")
        for pod in ["FirebaseCoreInternal", "FirebaseCore", "FirebaseCoreExtension"] {
            #expect(first.out.contains("wrote \(guardFile(pod, "swift").dropFirst(3))"), "\(first.out)")
            #expect(try sandbox.read(guardFile(pod, "swift")).contains("public static let string = \"12.19.0\""))
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/firebase/Sources/firebase").path), "no guard for the module as a whole")
        let core = try sandbox.read(guardFile("FirebaseCore", "swift"))
        #expect(core.contains("import FirebaseCoreInternal\n") && core.contains("FirebaseCoreInternalModuleVersionGuard.RequiredByFirebaseCore"), "\(core)")
        #expect(!core.contains("FirebaseCoreExtension"), "a pod guards only what its own podspec requires:\n\(core)")
        #expect(try sandbox.read(guardFile("FirebaseCoreExtension", "h")).contains("#    include <FirebaseCore/FirebaseCoreVersion.h>"))
        let app = try sandbox.read("ws/App/Sources/App/Generated/AppVersion.swift")
        #expect(app.contains("import FirebaseCore\n") && app.contains("App 1.0.0 requires FirebaseCore 12.19.0, not this version.") && !app.contains("import firebase"), "\(app)")

        let matched = try build(sandbox)
        #expect(matched.status == 0, "matching pods must build:\n\(matched.out)\(matched.err)")
        #expect(try compileC(sandbox, including: "AppVersion.h").status == 0)

        // FirebaseCoreInternal moves to 12.20.0: its guard and FirebaseCore's (which requires it) are stale, nothing else.
        try sandbox.write(Self.podspec("FirebaseCoreInternal", "12.20.0", []), to: "ws/firebase/FirebaseCoreInternal.podspec")
        let stale = try sandbox.modkit("guard", "--check", in: "ws")
        #expect(stale.status == 1)
        let staleFiles = stale.out.split(separator: "\n").map { String($0.prefix { $0 != ":" }) }
        #expect(Set(staleFiles) == Set(["FirebaseCoreInternal", "FirebaseCore"].flatMap { pod in ["h", "swift"].map { String(guardFile(pod, $0).dropFirst(3)) } }),
                "\(stale.out)")

        // A checkout that brings FirebaseCoreInternal's new guard but keeps FirebaseCore's: the compilers refuse FirebaseCore.
        let coreSwift = try sandbox.read(guardFile("FirebaseCore", "swift")), coreHeader = try sandbox.read(guardFile("FirebaseCore", "h"))
        #expect(try sandbox.modkit("guard", in: "ws").status == 0)
        try sandbox.write(coreSwift, to: guardFile("FirebaseCore", "swift"))
        try sandbox.write(coreHeader, to: guardFile("FirebaseCore", "h"))
        let requirement = "FirebaseCore 12.19.0 requires FirebaseCoreInternal 12.19.0"
        let mismatched = try build(sandbox)
        #expect(mismatched.status != 0, "FirebaseCore against FirebaseCoreInternal 12.20.0 must not build:\n\(mismatched.out)")
        #expect(mismatched.out.contains("FirebaseCoreVersion.swift") && mismatched.out.contains("error: conformance of 'FirebaseCoreInternal_Version_12_20_0' to 'FirebaseCoreAcceptsFirebaseCoreInternalVersion' is unavailable: \(requirement), not this version."),
                "\(mismatched.out)\(mismatched.err)")
        let refusedC = try compileC(sandbox, including: "FirebaseCoreVersion.h")
        #expect(refusedC.status != 0 && refusedC.err.contains("error: \(requirement); found FirebaseCoreInternal \"12.20.0\". Run modkit sync / modkit pin and then modkit guard."), "\(refusedC.err)")

        // modkit guard regenerates FirebaseCore's guard; the build passes again.
        let fixed = try sandbox.modkit("guard", in: "ws")
        #expect(fixed.out == "wrote \(guardFile("FirebaseCore", "h").dropFirst(3))\nwrote \(guardFile("FirebaseCore", "swift").dropFirst(3))\n", "\(fixed.out)")
        #expect(try sandbox.read(guardFile("FirebaseCore", "swift")).contains("FirebaseCoreInternal 12.20.0, the version FirebaseCore requires."))
        let rebuilt = try build(sandbox)
        #expect(rebuilt.status == 0, "\(rebuilt.out)\(rebuilt.err)")

        // FirebaseCore moves to 12.21.0 while App's guard still requires 12.19.0: App is refused.
        let appSwift = try sandbox.read("ws/App/Sources/App/Generated/AppVersion.swift")
        try sandbox.write(Self.podspec("FirebaseCore", "12.21.0", ["FirebaseCoreInternal"]), to: "ws/firebase/FirebaseCore.podspec")
        #expect(try sandbox.modkit("guard", in: "ws").status == 0)
        try sandbox.write(appSwift, to: "ws/App/Sources/App/Generated/AppVersion.swift")
        let appMismatched = try build(sandbox)
        #expect(appMismatched.status != 0 && appMismatched.out.contains("error: conformance of 'FirebaseCore_Version_12_21_0' to 'AppAcceptsFirebaseCoreVersion' is unavailable: App 1.0.0 requires FirebaseCore 12.19.0, not this version."),
                "\(appMismatched.out)\(appMismatched.err)")
        #expect(try sandbox.modkit("guard", in: "ws").status == 0)
        let appFixed = try build(sandbox)
        #expect(appFixed.status == 0, "\(appFixed.out)\(appFixed.err)")
        #expect(try sandbox.modkit("guard", "--check", in: "ws").status == 0)
    }
}
