import Foundation
import Testing
@testable import ModKit

@Suite struct ExportTests {
    func manifest() throws -> Manifest {
        try ManifestLoader.parse(text: """
        version: 1
        workspace: Shop
        defaults:
          revision: develop
          url-base: https://git.example.com/ios
        modules:
          - {name: Core, url: Core.git, path: Libs/Core, groups: [core]}
          - {name: Pay, url: team/Pay.git, path: Libs/Pay, revision: v2.0}
          - {name: Lottie, url: "https://github.com/airbnb/lottie-ios.git", path: Vendor/Lottie, revision: master}
          - {name: Docs, path: Docs}

        """, file: URL(fileURLWithPath: "/nonexistent/shop/modkit.yml"), displayPath: "modkit.yml")
    }

    @Test func westKeepsURLBaseAsTheDefaultRemoteAndSplitsTheRest() throws {
        let result = try ManifestExporter.export(try manifest(), modules: try manifest().modules, format: .west, exact: false)
        #expect(result.text.contains("""
          remotes:
            - name: origin
              url-base: https://git.example.com/ios
            - name: remote2
              url-base: https://github.com/airbnb
          defaults:
            remote: origin
            revision: develop
          projects:
            - name: Core
              repo-path: Core.git
              path: Libs/Core
              groups: [core]
            - name: Pay
              repo-path: team/Pay.git
              path: Libs/Pay
              revision: v2.0
            - name: Lottie
              remote: remote2
              repo-path: lottie-ios.git
              path: Vendor/Lottie
              revision: master

        """), "\(result.text)")
        #expect(result.warnings == [.warning("a directory of the manifest repository, not a repository of its own; not exported", module: "Docs")])
    }

    @Test func repoNamesProjectsByTheirRemotePathAndAnnotatesRenamedOnes() throws {
        let result = try ManifestExporter.export(try manifest(), modules: try manifest().modules, format: .repo, exact: false)
        #expect(result.text.contains("<remote name=\"origin\" fetch=\"https://git.example.com/ios\"/>"))
        #expect(result.text.contains("<default remote=\"origin\" revision=\"develop\"/>"))
        #expect(result.text.contains("<project name=\"Core.git\" path=\"Libs/Core\" groups=\"core\"/>"))
        #expect(result.text.contains("<project name=\"lottie-ios.git\" path=\"Vendor/Lottie\" remote=\"remote2\" revision=\"master\">\n    <annotation name=\"modkit-name\" value=\"Lottie\"/>\n  </project>"))
    }

    @Test func vcstoolWritesFullURLsAndEffectiveRevisions() throws {
        let result = try ManifestExporter.export(try manifest(), modules: try manifest().modules, format: .vcstool, exact: false)
        #expect(result.text.contains("  Libs/Core:\n    type: git\n    url: https://git.example.com/ios/Core.git\n    version: develop\n"))
        #expect(result.text.contains("  Libs/Pay:\n    type: git\n    url: https://git.example.com/ios/team/Pay.git\n    version: v2.0\n"))
    }

    @Test func exactNamesEveryModuleThatIsNotCloned() throws {
        do {
            _ = try ManifestExporter.export(try manifest(), modules: try manifest().modules, format: .vcstool, exact: true)
            Issue.record("expected an error")
        } catch let error as ExportError {
            #expect(error.diagnostics.map(\.module) == ["Core", "Pay", "Lottie"] && error.diagnostics.allSatisfy { $0.message.hasPrefix("not cloned at ") })
            #expect(error.diagnostics.allSatisfy { $0.severity == .error }, "an operation that failed (exit 1), not bad input")
        }
    }
}
