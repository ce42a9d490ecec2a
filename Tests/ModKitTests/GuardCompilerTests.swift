import Foundation
import Testing
@testable import ModKit

/// The guards proven with the real compilers: a matching pair builds, a mismatched pair stops with the message.
@Suite struct GuardCompilerTests {
    static let core101 = GuardSpec(name: "Core", version: version("1.0.1"))
    static let feature = GuardSpec(name: "Feature", version: version("2.0.0"), dependencies: [GuardDependency(name: "Core", version: version("1.0.1"))])

    /// Every compiler of ``guardCCompilers()`` with `-fsyntax-only -Wall -Wextra -Werror`: a matching build must not even warn.
    func compileEverywhere(_ source: URL, includes: [URL]) throws -> [(String, GuardProcessResult)] {
        let flags = ["-fsyntax-only", "-Wall", "-Wextra", "-Werror"] + includes.flatMap { ["-I", $0.path] }
        return try guardCCompilers().map { name, compiler, language in
            (name, try runGuardProcess(compiler, flags + language + [source.path]))
        }
    }

    @Test func cHeadersCompileWhenVersionsMatchAndStopWhenTheyDoNot() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let core = root.appendingPathComponent("Core"), feature = root.appendingPathComponent("Feature")
        try writeGuard(Self.core101, in: core, languages: [.c])
        try writeGuard(Self.feature, in: feature, languages: [.c])
        let source = root.appendingPathComponent("main.c")
        try Data("""
            #include "FeatureVersion.h"
            typedef char feature_is_2_0_0[FeatureModuleVersionNumber == 2000000 ? 1 : -1];
            static const char *versions[] = { FeatureModuleVersionString, CoreModuleVersionString };
            int main(void) { return versions[0][0] == '2' ? 0 : 1; }

            """.utf8).write(to: source)
        let includes = [core, feature].map { $0.appendingPathComponent("Generated") }

        for (language, result) in try compileEverywhere(source, includes: includes) {
            #expect(result.status == 0, "\(language) should compile against matching versions:\n\(result.output)")
        }

        // Core moves to 1.0.2 and only Core's guard is regenerated: Feature's header now stops the build.
        try writeGuard(GuardSpec(name: "Core", version: version("1.0.2")), in: core, languages: [.c])
        for (language, result) in try compileEverywhere(source, includes: includes) {
            #expect(result.status != 0, "\(language) must not compile against Core 1.0.2")
            // One error line, naming the version required and the version found (the string of Core's own header).
            let errors = errorLines(result.output)
            #expect(errors.count == 1 && errors[0].hasPrefix(feature.appendingPathComponent("Generated/FeatureVersion.h").path + ":"), "\(language):\n\(result.output)")
            #expect(errors.first?.hasSuffix(": error: Feature 2.0.0 requires Core 1.0.1; found Core \"1.0.2\". Run modkit sync / modkit pin and then modkit guard.") == true,
                    "\(language):\n\(result.output)")
        }

        // Regenerating Feature's guard for Core 1.0.2 makes it compile again.
        try writeGuard(GuardSpec(name: "Feature", version: version("2.0.0"), dependencies: [GuardDependency(name: "Core", version: version("1.0.2"))]), in: feature, languages: [.c])
        for (language, result) in try compileEverywhere(source, includes: includes) {
            #expect(result.status == 0, "\(language):\n\(result.output)")
        }
    }

    @Test func preReleasesAreToldApartByTheMarker() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        // Framework-style layout: <Core/CoreVersion.h>, as a pod's public headers are reached.
        let headers = root.appendingPathComponent("Headers")
        try writeGuard(GuardSpec(name: "Core", version: version("1.2.0-beta.1")), in: headers, generatedDir: "Core", languages: [.c])
        try writeGuard(GuardSpec(name: "Feature", version: version("1.0.0"), dependencies: [GuardDependency(name: "Core", version: version("1.2.0-beta.1"))]),
                       in: headers, generatedDir: "Feature", languages: [.c])
        let source = root.appendingPathComponent("main.c")
        try Data("#include <Feature/FeatureVersion.h>\nint main(void) { return 0; }\n".utf8).write(to: source)

        for (language, result) in try compileEverywhere(source, includes: [headers]) {
            #expect(result.status == 0, "\(language):\n\(result.output)")
        }
        // Same number (1002000), different pre-release, and then the release itself: both refused.
        for other in ["1.2.0-beta.2", "1.2.0"] {
            try writeGuard(GuardSpec(name: "Core", version: version(other)), in: headers, generatedDir: "Core", languages: [.c])
            for (language, result) in try compileEverywhere(source, includes: [headers]) {
                #expect(result.status != 0 && result.output.contains("error: Feature 1.0.0 requires Core 1.2.0-beta.1; found Core \"\(other)\"."),
                        "\(language) against \(other):\n\(result.output)")
            }
        }
    }

    /// Two local packages; each module's guard lives in its target folder (`generated-dir: Sources/{module}/Generated`).
    func makePackages(in root: URL) throws -> (core: URL, feature: URL) {
        let core = root.appendingPathComponent("Core"), feature = root.appendingPathComponent("Feature")
        let files = [
            "Core/Package.swift": """
                // swift-tools-version:6.0
                import PackageDescription
                let package = Package(name: "Core", products: [.library(name: "Core", targets: ["Core"])], targets: [.target(name: "Core")])

                """,
            "Core/Sources/Core/Core.swift": "public func coreGreeting() -> String { \"core \\(CoreModuleVersion.string)\" }\n",
            "Feature/Package.swift": """
                // swift-tools-version:6.0
                import PackageDescription
                let package = Package(name: "Feature", products: [.library(name: "Feature", targets: ["Feature"])],
                                      dependencies: [.package(path: "../Core")],
                                      targets: [.target(name: "Feature", dependencies: [.product(name: "Core", package: "Core")])])

                """,
            "Feature/Sources/Feature/Feature.swift": "import Core\npublic func featureGreeting() -> String { coreGreeting() }\n",
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return (core, feature)
    }

    /// The guard folder inside each target, so SwiftPM compiles the guard into its own module.
    static let swiftGeneratedDir = "Sources/{module}/Generated"

    /// `swift build` of the Feature package, incremental in `scratch`.
    static func build(_ feature: URL, with swift: String, scratch: URL) throws -> GuardProcessResult {
        try runGuardProcess(swift, ["build", "--package-path", feature.path, "--scratch-path", scratch.path])
    }

    @Test(.timeLimit(.minutes(10)))
    func swiftPackagesBuildWhenVersionsMatchAndFailWhenTheyDoNotEvenIncrementally() throws {
        let swift = try #require(findExecutable("swift"), "swift is needed")
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (core, feature) = try makePackages(in: root)
        let generatedDir = Self.swiftGeneratedDir
        func build(scratch: String = ".build") throws -> GuardProcessResult { try Self.build(feature, with: swift, scratch: root.appendingPathComponent(scratch)) }
        let message = "conformance of 'Core_Version_1_0_2' to 'FeatureAcceptsCoreVersion' is unavailable: Feature 2.0.0 requires Core 1.0.1, not this version. "
            + "Run modkit sync / modkit pin and then modkit guard."

        // Both languages are written: a header in a Swift target is ignored by SwiftPM.
        try writeGuard(Self.core101, in: core, generatedDir: generatedDir)
        try writeGuard(Self.feature, in: feature, generatedDir: generatedDir)
        let matching = try build()
        #expect(matching.status == 0, "matching versions must build:\n\(matching.output)")
        #expect(!matching.output.contains("Generated/"), "no diagnostics in generated files:\n\(matching.output)")

        // Core moves to 1.0.2; only Core's guard is regenerated; the incremental build right after must fail.
        let core102 = GuardSpec(name: "Core", version: version("1.0.2"))
        try writeGuard(core102, in: core, generatedDir: generatedDir)
        let incremental = try build()
        #expect(incremental.status != 0, "incremental build against Core 1.0.2 must fail:\n\(incremental.output)")
        #expect(incremental.output.contains("FeatureVersion.swift"), "\(incremental.output)")
        #expect(incremental.output.contains("error: \(message)"), "\(incremental.output)")

        // The same from a clean build.
        let clean = try build(scratch: ".build-clean")
        #expect(clean.status != 0 && clean.output.contains("error: \(message)"), "clean build against Core 1.0.2 must fail:\n\(clean.output)")

        // Regenerating Feature's guard for Core 1.0.2 makes it build again.
        var feature102 = Self.feature
        feature102.dependencies[0].version = version("1.0.2")
        #expect(try writeGuard(feature102, in: feature, generatedDir: generatedDir).count == 2)
        let fixed = try build()
        #expect(fixed.status == 0, "Feature guarded for Core 1.0.2 must build:\n\(fixed.output)")
    }

    /// The incremental cycle a teammate meets, exactly 20 times and without pauses: build, bump Core, regenerate only Core's
    /// guard, build. Feature requires Core 1.0.1; every build against another version fails with the guard's message.
    /// In cycles 4 and 14 the guard is written in the very second the previous build started, and Core is stamped as if
    /// rebuilt the instant `modkit guard` returned: without `GuardWriter.settle()` those builds pass against the wrong Core.
    /// The 20 cycles run as two workspaces of ten side by side (cycles 0–9 and 10–19), each from its own first build, so
    /// the waits for a same second do not add up to the suite's longest test.
    @Test(.timeLimit(.minutes(15)), arguments: [0, 10])
    func everyIncrementalBuildAfterABumpIsCheckedTwentyTimesOver(firstCycle: Int) throws {
        let swift = try #require(findExecutable("swift"), "swift is needed")
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        #if os(Linux)
        let library = try #require(GuardSameSecond.library, "libfaketime is needed (apt-get install faketime; scripts/test.sh installs it)")
        let sameSecondCycles: Set<Int> = [4, 14]
        #else
        let library = GuardSameSecond.library ?? ""
        let sameSecondCycles: Set<Int> = []   // libfaketime cannot be preloaded into the toolchain under macOS's System Integrity Protection
        #endif
        let clock = try GuardSameSecond(in: root, swiftc: try #require(findExecutable("swiftc"), "swiftc is needed"), library: library)
        let (core, feature) = try makePackages(in: root)
        let generatedDir = Self.swiftGeneratedDir
        let scratch = root.appendingPathComponent(".build")
        func build(fakeSecond: Int? = nil, arguments: [String] = []) throws -> GuardProcessResult {
            try runGuardProcess(swift, ["build", "--package-path", feature.path, "--scratch-path", scratch.path] + arguments,
                                environment: clock.environment(fakeSecond: fakeSecond))
        }
        try writeGuard(Self.core101, in: core, generatedDir: generatedDir)
        try writeGuard(Self.feature, in: feature, generatedDir: generatedDir)
        let first = try build()
        try #require(first.status == 0, "matching versions must build:\n\(first.output)")
        let versions = ["1.0.2", "1.0.1", "1.0.3", "1.0.1"]
        var outcomes: [String] = []
        var fakeSecond: Int?
        var lastDuration = 10.0
        let cycles = firstCycle..<(firstCycle + 10)
        for cycle in cycles {
            let coreVersion = versions[cycle % versions.count]
            if let second = fakeSecond {
                #expect(GuardSameSecond.wait(until: second), "cycle \(cycle): the previous build ran past its fake second \(second)")
            }
            let writing = Date()
            try writeGuard(GuardSpec(name: "Core", version: version(coreVersion)), in: core, generatedDir: generatedDir)
            if let second = fakeSecond {
                #expect(Int(writing.timeIntervalSince1970) == second, "cycle \(cycle): the guard must be written in second \(second)")
                let returned = Date()
                let coreOnly = try build(arguments: ["--target", "Core"])
                try #require(coreOnly.status == 0, "cycle \(cycle): Core alone must build:\n\(coreOnly.output)")
                try GuardSameSecond.stamp(scratch.appendingPathComponent("debug/Modules/Core.swiftmodule"), returned)
            }
            // The build before a same-second cycle starts, as the compiler sees it, in a second it surely ends before.
            let started = Date()
            fakeSecond = sameSecondCycles.contains(cycle + 1) ? Int(started.timeIntervalSince1970 + 3 * lastDuration) + 3 : nil
            let result = try build(fakeSecond: fakeSecond)
            lastDuration = Date().timeIntervalSince(started)
            let message = "error: conformance of 'Core_Version_\(coreVersion.replacingOccurrences(of: ".", with: "_"))' to 'FeatureAcceptsCoreVersion' is unavailable: "
                + "Feature 2.0.0 requires Core 1.0.1, not this version."
            if coreVersion == "1.0.1" {
                #expect(result.status == 0, "cycle \(cycle): Core 1.0.1 must build:\n\(result.output)")
            } else {
                #expect(result.status != 0 && result.output.contains(message), "cycle \(cycle): Core \(coreVersion) must fail with the guard's message:\n\(result.output)")
            }
            outcomes.append("\(coreVersion):\(result.status == 0 ? "built" : "failed")")
        }
        #expect(outcomes.count == cycles.count, "\(outcomes)")
    }
}
