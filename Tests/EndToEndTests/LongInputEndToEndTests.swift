import Foundation
import Testing

/// Issues 35 and 37 against the built binary: thousands of requirements or bad entries on one line give a capped, located
/// report whose lines stay short, and one finding per line where a tool reads them. Sizes are moderate so the suite stays
/// fast; how the time grows is measured by scripts/bench/linear.py, never asserted here.
@Suite struct LongInputEndToEndTests {
    /// A workspace of one directory module `App` at version 1.0.0 holding `files`.
    func workspace(_ files: [String: String]) throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nmodules:\n  - name: App\n    path: App\n    version: 1.0.0\n", to: "ws/modkit.yml")
        for (name, text) in files { try sandbox.write(text, to: "ws/App/\(name)") }
        return sandbox
    }

    func podfileLock(_ count: Int) -> String {
        "PODS:\n" + (0..<count).map { "  - Dep\($0) (1.0.\($0))\n" }.joined() + "\nCOCOAPODS: 1.15.2\n"
    }

    /// Every line of `text` is short enough to read: at most the excerpt's 120 columns and its markers, or a header.
    func expectShortLines(_ text: String, _ limit: Int = 400, sourceLocation: SourceLocation = #_sourceLocation) {
        let longest = text.split(separator: "\n").map(\.count).max() ?? 0
        #expect(longest <= limit, "a line of \(longest) characters", sourceLocation: sourceLocation)
    }

    func errorCount(_ text: String) -> Int { text.components(separatedBy: ": error: ").count - 1 }

    @Test func aOneLineManifestOfThousandsOfBadEntriesShowsFiftyAndCountsTheRest() throws {
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nmodules: [" + Array(repeating: "a", count: 3000).joined(separator: ", ") + "]\n", to: "ws/modkit.yml")
        let list = try sandbox.modkit("list", in: "ws")
        #expect(list.status == 2)
        #expect(errorCount(list.err) == 50, "\(list.err.prefix(2000))")
        #expect(list.err.hasPrefix("modkit.yml:2:11: error: "), "\(list.err.prefix(500))")
        #expect(list.err.contains("modkit: and 2950 more errors (--json lists them all)"), "\(list.err.suffix(500))")
        expectShortLines(list.err)
        let json = try sandbox.modkit("--json", "list", in: "ws")
        #expect(json.status == 2)
        #expect(json.out.components(separatedBy: "\"message\"").count - 1 == 3000, "--json lists every error")
    }

    @Test func aOneLineWestManifestOfBadProjectsAndOneEndingInBlanksAreCappedAndLocated() throws {
        let sandbox = try Sandbox()
        try sandbox.write("manifest: {projects: [" + Array(repeating: "a", count: 2000).joined(separator: ", ") + "]}\n", to: "ws/west.yml")
        let projects = try sandbox.modkit("init", "--import", "west.yml", in: "ws")
        #expect(projects.status == 2)
        #expect(errorCount(projects.err) == 50, "\(projects.err.prefix(2000))")
        #expect(projects.err.hasPrefix("west.yml:1:11: error: west.yml declares no project\n"), "\(projects.err.prefix(500))")
        #expect(projects.err.contains("\nwest.yml:1:23: error: expected a project (a mapping with 'name'), found a string\n"))
        #expect(projects.err.contains("modkit: and 1951 more errors"), "\(projects.err.suffix(500))")
        expectShortLines(projects.err)
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/modkit.yml").path), "nothing written")

        try sandbox.write("manifest: {projects: [{name: a, url: 'file:///srv/a" + String(repeating: " ", count: 30_000), to: "ws/west.yml")
        let blanks = try sandbox.modkit("init", "--import", "west.yml", in: "ws")
        #expect(blanks.status == 2)
        #expect(errorCount(blanks.err) == 1, "\(blanks.err.prefix(2000))")
        #expect(blanks.err.hasPrefix("west.yml:1:"), "\(blanks.err.prefix(500))")
        expectShortLines(blanks.err)
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/modkit.yml").path), "nothing written")
    }

    @Test func aRepoProjectOfThousandsOfUnknownAttributesIsOneFoldedWarning() throws {
        let sandbox = try Sandbox()
        let attributes = (0..<2000).map { "x\($0)=\"v\($0)\"" }.joined(separator: " ")
        try sandbox.write("<manifest><remote name=\"o\" fetch=\"file:///srv\"/><default remote=\"o\" revision=\"main\"/>"
                          + "<project name=\"p\" path=\"libs/p\" \(attributes)/></manifest>\n", to: "ws/default.xml")
        let result = try sandbox.modkit("init", "--import", "default.xml", in: "ws")
        #expect(result.status == 0, "\(result.err.prefix(2000))")
        #expect(result.err.components(separatedBy: "warning:").count - 1 == 1, "\(result.err.prefix(2000))")
        #expect(result.err.contains("default.xml:1:86: warning: attribute x0=\"v0\" of <project name=\"p\"> is not carried over — and 1999 more like this"),
                "\(result.err.prefix(1000))")
        expectShortLines(result.err)
        #expect(try sandbox.read("ws/modkit.yml").contains("path: libs/p"))
    }

    @Test func thousandsOfRequirementsOnOneLineAreEachFoundAndPinned() throws {
        let count = 600
        let sandbox = try workspace([
            "App.podspec": "Pod::Spec.new do |s| s.name = 'App'; s.version = '1.0.0'; "
                + (0..<count).map { "s.dependency 'Dep\($0)', '~> 1.0'" }.joined(separator: "; ") + "; end\n",
            "Podfile": "target 'App' do; " + (0..<count).map { "pod 'Dep\($0)'" }.joined(separator: "; ") + "; end\n",
            "Podfile.lock": podfileLock(count),
        ])
        let check = try sandbox.modkit("pin", "--check", in: "ws")
        #expect(check.status == 1, "\(check.err.prefix(1000))")
        let findings = check.out.split(separator: "\n")
        #expect(findings.count == 2 * count)
        #expect(findings.first == "App/App.podspec:1: 'Dep0' is loose ('~> 1.0'); pin: 1.0.0")
        #expect(findings.contains("App/Podfile:1: 'Dep\(count - 1)' is loose (no version requirement); pin: 1.0.\(count - 1)"))
        let pin = try sandbox.modkit("pin", in: "ws")
        #expect(pin.status == 0, "\(pin.err.prefix(1000))")
        #expect(try sandbox.read("ws/App/Podfile") == "target 'App' do; "
                + (0..<count).map { "pod 'Dep\($0)', '1.0.\($0)'" }.joined(separator: "; ") + "; end\n")
        #expect(try sandbox.read("ws/App/App.podspec").contains("s.dependency 'Dep\(count - 1)', '1.0.\(count - 1)'; end"))
    }

    @Test func aPackageManifestAndACartfileOfThousandsOfRequirementsResolveFromTheirLockFiles() throws {
        let count = 600
        let pins = (0..<count).map {
            "{\"identity\": \"dep\($0)\", \"kind\": \"remoteSourceControl\", \"location\": \"https://example.com/org/Dep\($0).git\", \"state\": {\"version\": \"1.0.\($0)\"}}"
        }
        let sandbox = try workspace([
            "Package.swift": "let package = Package(name: \"App\", dependencies: ["
                + (0..<count).map { ".package(url: \"https://example.com/org/Dep\($0).git\", from: \"1.0.0\")" }.joined(separator: ", ") + "])\n",
            "Package.resolved": "{\"pins\": [" + pins.joined(separator: ", ") + "], \"version\": 2}\n",
            "Cartfile": (0..<count).map { "github \"org/Dep\($0)\" ~> 1.0\n" }.joined(),
            "Cartfile.resolved": (0..<count).map { "github \"org/Dep\($0)\" \"1.0.\($0)\"\n" }.joined(),
        ])
        let check = try sandbox.modkit("pin", "--check", in: "ws")
        #expect(check.status == 1, "\(check.err.prefix(1000))")
        let findings = check.out.split(separator: "\n")
        #expect(findings.count == 2 * count)
        #expect(findings.contains("App/Cartfile:\(count): 'Dep\(count - 1)' is loose ('~> 1.0'); pin: 1.0.\(count - 1)"))
        #expect(findings.contains("App/Package.swift:1: 'dep\(count - 1)' is loose ('from: \"1.0.0\"'); pin: 1.0.\(count - 1)"))
    }

    @Test func aJSONRequirementOverSeveralLinesIsOneFinding() throws {
        let sandbox = try workspace([
            "App.podspec.json": "{\n  \"name\": \"App\",\n  \"version\": \"1.0.0\",\n  \"dependencies\": {\n    \"Dep1\": [\n      \"~> 1.0\",\n      \"< 2.0\"\n    ]\n  }\n}\n",
            "Podfile.lock": podfileLock(2),
        ])
        let check = try sandbox.modkit("pin", "--check", in: "ws")
        #expect(check.status == 1, "\(check.err)")
        #expect(check.out == "App/App.podspec.json:6: 'Dep1' is loose (\"~> 1.0\", \"< 2.0\"); pin: 1.0.1\n", "\(check.out)")
    }

    @Test func aPackageManifestEndingInAnUnterminatedStringAndBlanksIsOneLocatedError() throws {
        let sandbox = try workspace([
            "Package.swift": "let package = Package(name: \"App\", dependencies: [.package(url: \"" + String(repeating: " ", count: 30_000),
        ])
        let check = try sandbox.modkit("pin", "--check", in: "ws")
        #expect(check.status == 1, "\(check.err.prefix(1000))")
        #expect(check.err.contains("App/Package.swift:1:65: unterminated string: the file ends before its closing quote"), "\(check.err.prefix(1000))")
        #expect(errorCount(check.err + "\n") <= 1)
        expectShortLines(check.out + check.err)
    }
}
