import Foundation
import Testing
@testable import ModKit

/// Template values are escaped for the string literal (or YAML value) they land in.
@Suite struct TemplateLanguageTests {
    func render(_ line: String, path: String, _ value: String) -> String {
        var problems: [Diagnostic] = []
        let text = Placeholders(values: ["v": value]).render(line, file: path, language: TemplateLanguage(path: path), problems: &problems)
        #expect(problems.isEmpty)
        return text
    }

    @Test func languagesFromFileNames() {
        #expect(TemplateLanguage(path: "M/M.podspec") == .ruby)
        #expect(TemplateLanguage(path: "M/Podfile") == .ruby)
        #expect(TemplateLanguage(path: "M/M.podspec.json") == .json)
        #expect(TemplateLanguage(path: "M/Package.swift") == .swift)
        #expect(TemplateLanguage(path: "M/.github/ci.yml") == .yaml)
        #expect(TemplateLanguage(path: "M/README.md") == .plain)
    }

    @Test func rubyStrings() {
        #expect(render("s.summary = '{{v}}'", path: "a.podspec", "O'Brien \\ x") == "s.summary = 'O\\'Brien \\\\ x'")
        #expect(render("s.summary = \"{{v}}\"", path: "a.podspec", "say \"#{hi}\"") == "s.summary = \"say \\\"\\#{hi}\\\"\"")
        #expect(render("# {{v}}", path: "a.podspec", "it's") == "# it's")
        #expect(render("s.name = '{{v}}' # '{{v}}'", path: "a.podspec", "a'b") == "s.name = 'a\\'b' # 'a'b'")
    }

    @Test func swiftJSONAndYAMLStrings() {
        #expect(render("let s = \"{{v}}\"", path: "A.swift", "a\"b\\(c)\n") == "let s = \"a\\\"b\\\\(c)\\n\"")
        #expect(render("// {{v}}", path: "A.swift", "a\"b") == "// a\"b")
        #expect(render("{\"summary\": \"{{v}}\"}", path: "a.json", "a\"b\\\t\u{1}") == "{\"summary\": \"a\\\"b\\\\\\t\\u0001\"}")
        #expect(render("summary: '{{v}}'", path: "a.yml", "it's") == "summary: 'it''s'")
        #expect(render("summary: \"{{v}}\"", path: "a.yml", "a\"b") == "summary: \"a\\\"b\"")
        #expect(render("summary: {{v}}", path: "a.yml", "a: b #c") == "summary: \"a: b #c\"")
        #expect(render("name: {{v}}Kit", path: "a.yml", "Pay") == "name: PayKit")
        #expect(render("The {{v}} module", path: "README.md", "O'Brien \"x\"") == "The O'Brien \"x\" module")
    }

    @Test func rubyAndSwiftWithQuotesInEveryValueStillParse() throws {
        let value = "Tencent's \"COS\" #{x} \\ SDK"
        let podspec = render("Pod::Spec.new do |s|\n  s.summary = '{{v}}'\n  s.description = \"{{v}}\"\nend\n", path: "a.podspec", value)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("modkit-escape-\(UUID().uuidString).podspec")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(podspec.utf8).write(to: file)
        let ruby = Process()
        ruby.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ruby.arguments = ["ruby", "-e", "module Pod; class Spec; def initialize; yield self; end; def method_missing(n, *a) = (@v ||= {})[n] = a.first; def v = @v; end; end; x = eval(File.read(ARGV[0])).v; print x[:summary=] == x[:description=] ? x[:summary=] : 'DIFFER'", file.path]
        let pipe = Pipe()
        ruby.standardOutput = pipe
        try ruby.run()
        ruby.waitUntilExit()
        #expect(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == value)
    }
}
