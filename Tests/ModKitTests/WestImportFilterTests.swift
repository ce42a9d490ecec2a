import Foundation
import Testing
@testable import ModKit

/// west's import filters and its path patterns, which are Python's `PurePosixPath.match`.
@Suite struct WestImportFilterTests {
    static let cases: [(pattern: String, path: String)] = [
        ("modules/hal/*", "modules/hal/nordic"), ("modules/hal/*", "modules/hal"), ("modules/hal/*", "modules/hal/nordic/x"),
        ("nordic", "modules/hal/nordic"), ("hal/*", "modules/hal/nordic"), ("modules/*", "modules/hal/nordic"),
        ("modules/**", "modules/hal/nordic"), ("**", "zephyr"), ("*", "modules/hal"), ("h?l", "modules/hal"),
        ("hal_[a-n]*", "modules/hal_nordic"), ("hal_[!a-n]*", "modules/hal_nordic"), ("hal_[!a-n]*", "modules/hal_stm32"),
        ("[", "modules/["), ("a[b", "x/a[b"), ("[]x]", "x/]"), ("modules/./hal/*", "modules/hal/nordic"),
        ("modules/hal/", "modules/hal"), ("/modules/hal", "modules/hal"), ("Modules/HAL", "modules/hal"), ("*.git", "tools/bsim.git"),
        ("tools/bsim/components", "tools/bsim/components"), ("bsim/*/ext_*", "tools/bsim/components/ext_2G4"),
    ]

    @Test func pathPatternsMatchAsPythonsPurePathMatch() throws {
        let expected = Self.cases.map { WestImportFilter.matches($0.pattern, path: $0.path) }
        let script = """
            import json, sys
            from pathlib import PurePosixPath
            print(json.dumps([PurePosixPath(path).match(pattern) for pattern, path in json.load(sys.stdin)]))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: Self.cases.map { [$0.pattern, $0.path] }))
        try input.fileHandleForWriting.close()
        let python = try JSONDecoder().decode([Bool].self, from: output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        for (index, item) in Self.cases.enumerated() {
            #expect(expected[index] == python[index], "'\(item.pattern)' against '\(item.path)': Python says \(python[index])")
        }
    }

    @Test func blockedProjectsComeBackOnlyThroughAnAllowlist() {
        var entry = ManifestImport(module: "zephyr")
        entry.nameBlocklist = ["loramac-node"]
        entry.pathBlocklist = ["modules/hal/*"]
        #expect(WestImportFilter.allows(entry, name: "mbedtls", path: "modules/crypto/mbedtls"))
        #expect(!WestImportFilter.allows(entry, name: "loramac-node", path: "modules/lib/loramac-node"))
        #expect(!WestImportFilter.allows(entry, name: "hal_nordic", path: "modules/hal/nordic"))
        entry.nameAllowlist = ["hal_nordic"]
        #expect(WestImportFilter.allows(entry, name: "hal_nordic", path: "modules/hal/nordic"))
        #expect(!WestImportFilter.allows(entry, name: "mbedtls", path: "modules/crypto/mbedtls"), "an allowlist leaves out what it does not name")
        entry.pathAllowlist = ["crypto/*"]
        #expect(WestImportFilter.allows(entry, name: "mbedtls", path: "modules/crypto/mbedtls"))
        #expect(WestImportFilter.allows(ManifestImport(module: "zephyr"), name: "any", path: "any"))
    }
}
