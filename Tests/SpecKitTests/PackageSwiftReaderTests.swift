import Testing
@testable import SpecKit

/// Package.swift `.package(…)` forms, `#if` context and the tools version.
@Suite struct PackageSwiftReaderTests {
    let manifest = """
    // swift-tools-version:5.9
    import PackageDescription

    let package = Package(
        name: "Payments",
        dependencies: [
            .package(url: "https://x.example/a/From.git", from: "1.0.0"),
            .package(url: "https://x.example/a/Major.git", .upToNextMajor(from: "1.0.0")),
            .package(url: "https://x.example/a/Minor.git", .upToNextMinor(from: "1.2.0")),
            .package(url: "https://x.example/a/Open.git", "1.0.0"..<"2.0.0"),
            .package(url: "https://x.example/a/Closed.git", "1.0.0"..."1.2.0"),
            .package(url: "https://x.example/a/Exact.git", exact: "1.0.0"),
            .package(url: "https://x.example/a/OldExact.git", .exact("1.0.0")),
            .package(url: "https://x.example/a/Branch.git", branch: "main"),
            .package(url: "https://x.example/a/OldBranch.git", .branch("main")),
            .package(url: "https://x.example/a/Rev.git", revision: "abc"),
            .package(url: "https://x.example/a/OldRev.git", .revision("abc")),
            .package(name: "Legacy", url: "https://x.example/a/Legacy.git", from: "1.0.0"),
            .package(path: "../Local"),
            .package(id: "acme.registry", from: "1.0.0"),
        ]
    )
    #if os(macOS)
    package.dependencies.append(.package(url: "https://x.example/a/Mac.git", from: "1.0.0"))
    #else
    package.dependencies.append(.package(url: "https://x.example/a/Other.git", from: "1.0.0"))
    #endif
    """

    @Test func classifiesEveryForm() throws {
        let requirements = try SpecReader.read(manifest, kind: .packageSwift)
        #expect(requirements.map(\.identity) == [
            "from", "major", "minor", "open", "closed", "exact", "oldexact", "branch", "oldbranch", "rev", "oldrev", "legacy",
            "local", "acme.registry", "mac", "other",
        ])
        #expect(requirements.map(\.constraint) == [
            .range("from: \"1.0.0\""), .range(".upToNextMajor(from: \"1.0.0\")"), .range(".upToNextMinor(from: \"1.2.0\")"),
            .range("\"1.0.0\"..<\"2.0.0\""), .range("\"1.0.0\"...\"1.2.0\""), .exact("1.0.0"), .exact("1.0.0"),
            .branch("main"), .branch("main"), .revision("abc"), .revision("abc"), .range("from: \"1.0.0\""),
            .path("../Local"), .range("from: \"1.0.0\""), .range("from: \"1.0.0\""), .range("from: \"1.0.0\""),
        ])
        #expect(requirements[0].name == "https://x.example/a/From.git")
        #expect(requirements[11].declaredName == "Legacy")
        #expect(requirements[12].origin == .path)
        #expect(requirements[12].rewritable == false)
        #expect(requirements[13].origin == .registry)
        #expect(requirements[13].name == "acme.registry")
        #expect(requirements.map(\.span.line) == Array(7...20) + [24, 26])
        #expect(requirements[0].span.column == 55)
    }

    @Test func recordsIfConditions() throws {
        let requirements = try SpecReader.read(manifest, kind: .packageSwift)
        #expect(requirements[0].context.condition == nil)
        #expect(requirements[14].context.condition == "os(macOS)")
        #expect(requirements[15].context.condition == "!(os(macOS))")
    }

    @Test func toolsVersionChoosesTheExactSpelling() throws {
        for (header, expected) in [("// swift-tools-version:5.5", ".exact(\"2.0.0\")"), ("// swift-tools-version: 5.6", "exact: \"2.0.0\""),
                                   ("//swift-tools-version:6.0", "exact: \"2.0.0\""), ("// swift-tools-version:4.2", ".exact(\"2.0.0\")")] {
            let text = header + "\nlet p = Package(name: \"P\", dependencies: [.package(url: \"https://x.example/P.git\", from: \"1.0.0\")])\n"
            let plan = try SpecRewriter.plan(text, kind: .packageSwift, versions: ["P": "2.0.0"])
            #expect(plan.newText.contains("P.git\", \(expected))"), "\(header): \(plan.newText)")
        }
    }

    @Test func traitsAreNotPartOfTheRequirement() throws {
        let text = "// swift-tools-version:6.1\nlet p = Package(name: \"P\", dependencies: [.package(url: \"https://x.example/P.git\", from: \"1.0.0\", traits: [\"A\"])])\n"
        let plan = try SpecRewriter.plan(text, kind: .packageSwift, versions: ["P": "2.0.0"])
        #expect(plan.newText.contains("P.git\", exact: \"2.0.0\", traits: [\"A\"])"), "\(plan.newText)")
    }
}
