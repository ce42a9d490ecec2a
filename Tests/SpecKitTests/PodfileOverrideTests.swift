import Testing
@testable import SpecKit

/// `modkit develop`'s Podfile rewrite: which lines change, what they keep, where transitive lines go, what is refused.
@Suite struct PodfileOverrideTests {
    private func apply(_ text: String, _ request: PodfileOverride.Request) throws -> String {
        String(decoding: try PodfileOverride.apply(Array(text.utf8), request), as: UTF8.self)
    }

    @Test func subspecsLabelsAndOptionsKeepTheirShape() throws {
        let text = """
        target 'App' do
          pod "Core/UI", "~> 1.0", :configurations => ['Debug']
          pod 'Core', git: 'https://example.com/Core.git', branch: 'main', modular_headers: true
          pod 'Other', '2.0'
        end

        """
        #expect(try apply(text, .init(paths: ["core": "../Core"])) == """
        target 'App' do
          pod "Core/UI", :path => "../Core", :configurations => ['Debug']
          pod 'Core', path: '../Core', modular_headers: true
          pod 'Other', '2.0'
        end

        """)
    }

    @Test func aTransitivePodGetsOneLineInEachTargetThatBringsItIn() throws {
        let text = "target 'A' do\n    pod 'Feature'\n    pod 'Search'\nend\ntarget 'B' do\n  pod \"Search\"\nend"
        let request = PodfileOverride.Request(paths: ["core": "Modules/Core"], transitive: ["core": ["feature", "search"]], spelling: ["core": "Core"])
        #expect(try apply(text, request) == """
        target 'A' do
            pod 'Feature'
            pod 'Core', :path => 'Modules/Core'
            pod 'Search'
        end
        target 'B' do
          pod "Search"
          pod "Core", :path => "Modules/Core"
        end
        """)
    }

    @Test func podsAndBrokenFilesAreReportedAtTheirPosition() throws {
        #expect(try PodfileOverride.pods(Array("pod 'Core/UI'\npod \"Net\", '1.0'\n".utf8)) == ["core", "net"])
        for (text, position) in [("target 'A' do\n  pod 'Core'\n", (1, 12)), ("pod 'Core'\nend\n", (2, 1)), ("pod 'Core\n", (1, 5))] {
            do {
                _ = try PodfileOverride.pods(Array(text.utf8))
                Issue.record("\(text) was accepted")
            } catch {
                #expect((error.line, error.column) == position, "\(text): \(error)")
            }
        }
        #expect(throws: SpecReadError.self) { try apply("pod 'Core', version\n", .init(paths: ["core": "../Core"])) }
        #expect(throws: SpecReadError.self) { try apply("pod \"#{prefix}Core\"\n", .init(paths: ["core": "../Core"])) }
        #expect(try apply("pod \"#{prefix}Other\"\n", .init(paths: ["core": "../Core"])) == "pod \"#{prefix}Other\"\n")
    }
}
