import Foundation
import Testing
@testable import SpecKit

/// Rewritten files must still mean the right thing to the real tools: SwiftPM's `dump-package` and Ruby.
@Suite struct EvaluationTests {
    /// Every rewritten Package.swift of the corpus, evaluated by `swift package dump-package`, requires exactly the pinned versions.
    @Test func rewrittenManifestsRequireExactVersions() throws {
        let cases = GoldenCase.all().filter { $0.kind == .packageSwift }
        #expect(cases.count >= 10)
        for golden in cases {
            let plan = try SpecRewriter.plan(try golden.input(), kind: golden.kind, versions: golden.versions)
            let directory = try ProcessRunner.temporaryDirectory(golden.name)
            defer { try? FileManager.default.removeItem(at: directory) }
            try Data(plan.newBytes).write(to: directory.appendingPathComponent("Package.swift"))
            let output = try ProcessRunner.run(["swift", "package", "dump-package", "--package-path", directory.path])
            try #require(output.status == 0, "dump-package failed for \(golden.name): \(output.stderr)")
            let dump = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
            let requirements = dependencyRequirements(dump)
            #expect(!plan.rewritten.isEmpty, "\(golden.name) rewrote nothing")
            for pin in plan.rewritten {
                let identity = pin.requirement.identity
                guard let requirement = requirements[identity] else {
                    #expect(pin.requirement.context.condition != nil, "\(golden.name): \(identity) missing from dump-package")
                    continue
                }
                #expect(requirement["exact"] as? [String] == [pin.version], "\(golden.name): \(identity) has \(requirement)")
            }
        }
    }

    /// The requirement object of each dependency in a dump-package JSON, by identity.
    private func dependencyRequirements(_ dump: [String: Any]) -> [String: [String: Any]] {
        var result: [String: [String: Any]] = [:]
        for dependency in dump["dependencies"] as? [[String: Any]] ?? [] {
            for kind in ["sourceControl", "registry"] {
                for entry in dependency[kind] as? [[String: Any]] ?? [] {
                    if let identity = entry["identity"] as? String, let requirement = entry["requirement"] as? [String: Any] {
                        result[identity] = requirement
                    }
                }
            }
        }
        return result
    }

    /// Every rewritten podspec of the corpus, evaluated by Ruby with a stand-in `Pod::Spec`, declares exactly the pinned versions.
    @Test func rewrittenPodspecsDeclareExactVersions() throws {
        try #require(ProcessRunner.isAvailable("ruby"), "ruby is missing: run `apt-get install -y ruby` (scripts/test.sh installs it)")
        let stub = GoldenCase.root.deletingLastPathComponent().appendingPathComponent("Ruby/pod_spec_stub.rb")
        let cases = GoldenCase.all().filter { $0.kind == .podspec }
        #expect(cases.count >= 15)
        for golden in cases {
            let plan = try SpecRewriter.plan(try golden.input(), kind: golden.kind, versions: golden.versions)
            let directory = try ProcessRunner.temporaryDirectory(golden.name)
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("Pod.podspec")
            try Data(plan.newBytes).write(to: file)
            let output = try ProcessRunner.run(["ruby", "-r", stub.path, file.path])
            try #require(output.status == 0, "ruby failed for \(golden.name): \(output.stderr)")
            let recorded = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
            let pinnedNames = Dictionary(plan.rewritten.map { ($0.requirement.name, $0.version) }, uniquingKeysWith: { first, _ in first })
            var checked = 0
            for dependency in recorded {
                guard let name = dependency["name"] as? String, let version = pinnedNames[name] else { continue }
                #expect(dependency["requirements"] as? [String] == [version], "\(golden.name): \(dependency)")
                checked += 1
            }
            #expect(checked > 0 || plan.rewritten.isEmpty, "\(golden.name): Ruby recorded none of the pinned dependencies")
        }
    }

    /// Every rewritten Podfile of the corpus, evaluated by Ruby with a stand-in DSL, asks for exactly the pinned versions.
    @Test func rewrittenPodfilesDeclareExactVersions() throws {
        try #require(ProcessRunner.isAvailable("ruby"), "ruby is missing: run `apt-get install -y ruby` (scripts/test.sh installs it)")
        let stub = GoldenCase.root.deletingLastPathComponent().appendingPathComponent("Ruby/podfile_stub.rb")
        let cases = GoldenCase.all().filter { $0.kind == .podfile }
        #expect(cases.count >= 4)
        for golden in cases {
            let plan = try SpecRewriter.plan(try golden.input(), kind: golden.kind, versions: golden.versions)
            let directory = try ProcessRunner.temporaryDirectory(golden.name)
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("Podfile")
            try Data(plan.newBytes).write(to: file)
            let output = try ProcessRunner.run(["ruby", "-r", stub.path, file.path])
            try #require(output.status == 0, "ruby failed for \(golden.name): \(output.stderr)")
            let recorded = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
            #expect(recorded.count == (try SpecReader.read(plan.newBytes, kind: .podfile)).count, "\(golden.name): \(recorded)")
            for pin in plan.rewritten {
                let matching = recorded.filter { $0["name"] as? String == pin.requirement.name }
                #expect(!matching.isEmpty, "\(golden.name): \(pin.requirement.name) not declared")
                for dependency in matching {
                    #expect(dependency["requirements"] as? [String] == [pin.version], "\(golden.name): \(dependency)")
                }
            }
        }
    }
}
