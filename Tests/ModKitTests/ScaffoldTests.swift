import Foundation
import Testing
@testable import ModKit

@Suite struct ScaffoldTests {
    /// A workspace with one module and a template folder built from `files` (template-relative path → text).
    func fixture(_ files: [String: String]) throws -> (root: URL, manifest: Manifest, template: Template) {
        let root = try makeTemporaryDirectory()
        let text = "version: 1\nmodules:\n  - name: Core\n    path: Libs/Core\n"
        try Data(text.utf8).write(to: root.appendingPathComponent("modkit.yml"))
        let folder = root.appendingPathComponent("t")
        for (path, contents) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        let manifest = try ManifestLoader.load(file: root.appendingPathComponent("modkit.yml"), displayPath: "modkit.yml")
        return (root, manifest, try Template.load(from: folder, name: "t", displayPath: "t", origin: .path))
    }

    func problems(_ body: () throws -> Void) -> [Diagnostic] {
        do { try body() } catch let error as TemplateError { return error.diagnostics } catch { Issue.record("\(error)") }
        return []
    }

    @Test func nameForms() {
        #expect(NameForms.upperCamel("payments_kit") == "PaymentsKit")
        #expect(NameForms.upperCamel("PaymentsUI") == "PaymentsUI")
        #expect(NameForms.snake("PaymentsUIKit") == "payments_ui_kit")
        #expect(NameForms.kebab("QCloudCore") == "q-cloud-core")
    }

    @Test func placeholdersRenderEscapeAndReportUnknownOnesWithTheirPosition() {
        var problems: [Diagnostic] = []
        let renderer = Placeholders(values: ["name": "Payments", "version": "1.0.0"])
        let text = renderer.render("a {{name}} {{ version }}\n\\{{literal}}\nb {{nmae}}", file: "t/README.md", problems: &problems)
        #expect(text == "a Payments 1.0.0\n{{literal}}\nb {{nmae}}")
        #expect(problems.count == 1)
        #expect(problems.first?.description.hasPrefix("t/README.md:3:3: error: unknown placeholder '{{nmae}}' (did you mean '{{name}}'?)") == true, "\(problems)")
    }

    @Test func globs() {
        #expect(Glob.matches("**/.DS_Store", path: "a/b/.DS_Store"))
        #expect(Glob.matches("**/.DS_Store", path: ".DS_Store"))
        #expect(Glob.matches("scripts/*.sh", path: "scripts/run.sh"))
        #expect(!Glob.matches("scripts/*.sh", path: "scripts/x/run.sh"))
        #expect(Glob.matches("*.sh", path: "scripts/x/run.sh"))
    }

    @Test func everyTemplateProblemIsReportedAndNothingIsCreated() throws {
        let (root, manifest, template) = try fixture([
            "template.yml": "description: broken\nvariables:\n  team:\n    description: the owning team\n  dir:\n    default: ../../outside\n",
            "{{name}}.swift": "// {{team}}\nlet x = {{unknown}}\n",
            "{{dir}}/evil.txt": "x\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let found = problems { _ = try Scaffolder.plan(ScaffoldRequest(name: "Payments"), template: template, manifest: manifest) }
        let text = found.map(\.description).joined(separator: "\n")
        #expect(text.contains("t/template.yml:3:3: error: variable 'team' (the owning team) has no value and no default"), "\(text)")
        #expect(text.contains("t/{{name}}.swift:2:9: error: unknown placeholder '{{unknown}}'"), "\(text)")
        #expect(text.contains("template path '{{dir}}/evil.txt' renders to '../../outside/evil.txt', which is outside the new module's folder"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Libs/Payments").path))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("outside").path))
    }

    @Test func symbolicLinksOutOfTheModuleAreRefused() throws {
        let (root, manifest, _) = try fixture(["template.yml": "description: links\n", "README.md": "x\n"])
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("t/passwd").path, withDestinationPath: "../../../etc/passwd")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("t/ok").path, withDestinationPath: "README.md")
        let template = try Template.load(from: root.appendingPathComponent("t"), name: "t", displayPath: "t", origin: .path)
        let found = problems { _ = try Scaffolder.plan(ScaffoldRequest(name: "Payments"), template: template, manifest: manifest) }
        #expect(found.count == 1)
        #expect(found.first?.message.contains("symbolic link 'passwd' points to '../../../etc/passwd'") == true)
    }

    @Test func aPlanNamesItsFilesGuardAndManifestEditAndApplyWritesThem() throws {
        let (root, manifest, template) = try fixture([
            "template.yml": "description: tiny\nvariables:\n  team: {default: Platform, pattern: '[A-Z][a-z]+'}\nexecutable: ['*.sh']\n",
            "{{name_snake}}/{{Name}}.swift": "// {{team}} {{version}} {{generated_dir}}\n",
            "bootstrap.sh": "#!/bin/sh\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let plan = try Scaffolder.plan(ScaffoldRequest(name: "payments_kit", variables: ["version": "1.2.0"]), template: template, manifest: manifest)
        #expect(plan.modules.map(\.path) == ["Libs/payments_kit"])
        #expect(plan.files.map(\.path).sorted() == ["Libs/payments_kit/Generated/payments_kitVersion.h", "Libs/payments_kit/Generated/payments_kitVersion.swift",
                                                   "Libs/payments_kit/bootstrap.sh", "Libs/payments_kit/payments_kit/PaymentsKit.swift"])
        #expect(plan.newManifest == plan.originalManifest + "  - name: payments_kit\n    path: Libs/payments_kit\n")
        _ = try Scaffolder.apply(plan)
        let swift = try String(contentsOf: root.appendingPathComponent("Libs/payments_kit/payments_kit/PaymentsKit.swift"), encoding: .utf8)
        #expect(swift == "// Platform 1.2.0 Generated\n")
        #expect(FileManager.default.isExecutableFile(atPath: root.appendingPathComponent("Libs/payments_kit/bootstrap.sh").path))
        #expect(try ManifestLoader.load(file: manifest.file).module(named: "payments_kit") != nil)

        // The same name again: refused, with the existing module's place.
        let again = try ManifestLoader.load(file: manifest.file, displayPath: "modkit.yml")
        let found = problems { _ = try Scaffolder.plan(ScaffoldRequest(name: "payments_kit"), template: template, manifest: again) }
        #expect(found.contains { $0.message.contains("already has a module named 'payments_kit'") })
    }

    @Test func aValueThatDoesNotMatchItsPatternIsAnError() throws {
        let (root, manifest, template) = try fixture([
            "template.yml": "variables:\n  team: {default: Platform, pattern: '[A-Z][a-z]+'}\n", "a.txt": "{{team}}\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let found = problems { _ = try Scaffolder.plan(ScaffoldRequest(name: "P", variables: ["team": "platform team", "tema": "x"]), template: template, manifest: manifest) }
        #expect(found.map(\.message) == ["value 'platform team' of variable 'team' does not match its pattern '[A-Z][a-z]+'",
                                         "template 't' has no variable 'tema' (did you mean 'team'?)"])
    }
}
