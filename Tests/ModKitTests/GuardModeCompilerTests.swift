import Foundation
import Testing
@testable import ModKit

/// The `minimum` and `interface` guard modes proven with the real compilers: C, C++ and Objective-C through the header,
/// Swift through the generated file type-checked against the dependency's guard compiled as a module.
@Suite struct GuardModeCompilerTests {
    static func interface(_ text: String) -> SemanticVersion { SemanticVersion(text, twoParts: true)! }
    static let payments = GuardSpec(name: "Payments", version: version("1.1.0"),
                                    dependencies: [GuardDependency(name: "PaymentsInterface", version: interface("1.1"), mode: .interface)])
    static let feature = GuardSpec(name: "Feature", version: version("2.0.0"),
                                   dependencies: [GuardDependency(name: "Core", version: version("1.0.1"), mode: .minimum)])

    /// Compiles `dependent`'s C header against `dependency` at each version; returns (version, status, output) per language.
    func compileC(_ dependent: GuardSpec, dependency: String, at versions: [SemanticVersion]) throws -> [(SemanticVersion, String, GuardProcessResult)] {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try writeGuard(dependent, in: root.appendingPathComponent(dependent.name), languages: [.c])
        let source = root.appendingPathComponent("main.c")
        try Data("#include \"\(dependent.name)Version.h\"\nint main(void) { return 0; }\n".utf8).write(to: source)
        let compilers = try guardCCompilers()
        var results: [(SemanticVersion, String, GuardProcessResult)] = []
        for found in versions {
            try writeGuard(GuardSpec(name: dependency, version: found), in: root.appendingPathComponent(dependency), languages: [.c])
            let includes = [dependent.name, dependency].flatMap { ["-I", root.appendingPathComponent("\($0)/Generated").path] }
            for (name, compiler, language) in compilers {
                results.append((found, name, try runGuardProcess(compiler, ["-fsyntax-only", "-Wall", "-Wextra", "-Werror"] + includes + language + [source.path])))
            }
        }
        return results
    }

    /// Type-checks `dependent`'s Swift guard against `dependency`'s guard compiled as a module at each version.
    func compileSwift(_ dependent: GuardSpec, dependency: String, at versions: [SemanticVersion]) throws -> [(SemanticVersion, GuardProcessResult)] {
        let swiftc = try #require(findExecutable("swiftc"), "swiftc is needed")
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try writeGuard(dependent, in: root.appendingPathComponent(dependent.name), languages: [.swift])
        var results: [(SemanticVersion, GuardProcessResult)] = []
        for found in versions {
            let directory = root.appendingPathComponent(dependency)
            try writeGuard(GuardSpec(name: dependency, version: found), in: directory, languages: [.swift])
            let module = root.appendingPathComponent("modules-\(found)")
            try FileManager.default.createDirectory(at: module, withIntermediateDirectories: true)
            let emitted = try runGuardProcess(swiftc, ["-emit-module", "-parse-as-library", "-module-name", dependency, "-emit-module-path",
                                                       module.appendingPathComponent("\(dependency).swiftmodule").path,
                                                       directory.appendingPathComponent("Generated/\(dependency)Version.swift").path])
            #expect(emitted.status == 0, "\(emitted.output)")
            results.append((found, try runGuardProcess(swiftc, ["-typecheck", "-parse-as-library", "-module-name", dependent.name, "-I", module.path,
                                                                root.appendingPathComponent("\(dependent.name)/Generated/\(dependent.name)Version.swift").path])))
        }
        return results
    }

    static let advice = "Run modkit sync / modkit pin and then modkit guard."
    static let interfaceRequirement = "Payments 1.1.0 requires PaymentsInterface 1.1 (interface rule: 1.y with y >= 1)"
    static let minimumRequirement = "Feature 2.0.0 requires Core 1.0.1 minimum"

    /// Expects `result` to be a refusal whose only error line is `…: error: <message>`.
    func expectRefused(_ result: GuardProcessResult, saying message: String, _ context: String) {
        let errors = errorLines(result.output)
        #expect(result.status != 0 && errors.count == 1 && errors.first?.hasSuffix(": error: " + message) == true,
                "\(context) must fail with one error line ending in\n\(message)\n\(result.output)")
    }

    @Test func cInterfaceModeAcceptsAHigherYAndRefusesAnotherXOrALowerY() throws {
        let versions = ["1.1", "1.3", "1.12", "1.0", "2.0", "0.9"].map(Self.interface)
        for (found, language, result) in try compileC(Self.payments, dependency: "PaymentsInterface", at: versions) {
            if found.major == 1 && found.minor >= 1 {
                #expect(result.status == 0 && result.output.isEmpty, "\(language) against PaymentsInterface \(found):\n\(result.output)")
            } else {
                expectRefused(result, saying: "\(Self.interfaceRequirement); found PaymentsInterface \(found.major).\(found.minor). \(Self.advice)",
                              "\(language) against PaymentsInterface \(found)")
            }
        }
    }

    @Test func cMinimumModeAcceptsEqualAndNewerAndRefusesOlder() throws {
        let versions = ["1.0.1", "1.0.2", "1.2.0", "3.0.0", "1.0.0", "0.9.9"].map(version)
        for (found, language, result) in try compileC(Self.feature, dependency: "Core", at: versions) {
            if found >= version("1.0.1") {
                #expect(result.status == 0 && result.output.isEmpty, "\(language) against Core \(found):\n\(result.output)")
            } else {
                expectRefused(result, saying: "\(Self.minimumRequirement); found Core \(found). \(Self.advice)", "\(language) against Core \(found)")
            }
        }
    }

    /// A dependency header without the version macros (not a modkit guard) cannot be named: the `#error` says so instead.
    @Test func cWithoutTheFoundMacrosFallsBackToTheErrorDirective() throws {
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try writeGuard(Self.payments, in: root.appendingPathComponent("Payments"), languages: [.c])
        try FileManager.default.createDirectory(at: root.appendingPathComponent("PaymentsInterface"), withIntermediateDirectories: true)
        try Data("/* hand-written, no version */\n".utf8).write(to: root.appendingPathComponent("PaymentsInterface/PaymentsInterfaceVersion.h"))
        let source = root.appendingPathComponent("main.c")
        try Data("#include \"PaymentsVersion.h\"\nint main(void) { return 0; }\n".utf8).write(to: source)
        for (name, compiler, language) in try guardCCompilers() {
            let result = try runGuardProcess(compiler, ["-fsyntax-only", "-I", root.appendingPathComponent("Payments/Generated").path,
                                                        "-I", root.appendingPathComponent("PaymentsInterface").path] + language + [source.path])
            #expect(result.status != 0 && result.output.contains("\(Self.interfaceRequirement); found another x or a lower y. \(Self.advice)"), "\(name):\n\(result.output)")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func swiftInterfaceAndMinimumModes() throws {
        for (found, result) in try compileSwift(Self.payments, dependency: "PaymentsInterface", at: ["1.1", "1.3", "1.12", "1.0", "2.0"].map(Self.interface)) {
            if found.major == 1 && found.minor >= 1 {
                #expect(result.status == 0 && result.output.isEmpty, "Swift against PaymentsInterface \(found):\n\(result.output)")
            } else {
                expectRefused(result, saying: "conformance of 'PaymentsInterface_Version_\(found.major)_\(found.minor)_0' to 'PaymentsAcceptsPaymentsInterfaceVersion' "
                              + "is unavailable: \(Self.interfaceRequirement), not this version. \(Self.advice)", "Swift against PaymentsInterface \(found)")
            }
        }
        for (found, result) in try compileSwift(Self.feature, dependency: "Core", at: ["1.0.1", "1.0.12", "1.3.0", "10.0.0", "1.0.0", "0.9.9"].map(version)) {
            if found >= version("1.0.1") {
                #expect(result.status == 0 && result.output.isEmpty, "Swift against Core \(found):\n\(result.output)")
            } else {
                expectRefused(result, saying: "conformance of 'Core_Version_\("\(found)".replacingOccurrences(of: ".", with: "_"))' to 'FeatureAcceptsCoreVersion' "
                              + "is unavailable: \(Self.minimumRequirement), not this version. \(Self.advice)", "Swift against Core \(found)")
            }
        }
    }
}
