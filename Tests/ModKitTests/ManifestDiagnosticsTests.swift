import Foundation
import Testing
@testable import ModKit

/// Validation output checked on its exact text: position, message, quoted line, caret.
@Suite struct ManifestDiagnosticsTests {
    let file = URL(fileURLWithPath: "/tmp/ws/modkit.yml")

    func problems(_ text: String) -> [Diagnostic] {
        do {
            _ = try ManifestLoader.parse(text: text, file: file, displayPath: "modkit.yml")
            Issue.record("expected the manifest to be rejected")
            return []
        } catch {
            return error.diagnostics
        }
    }

    @Test func sixMistakesGiveSixDiagnosticsInOneRun() {
        let text = """
        version: 1
        workspace: Demo
        defaults:
          url-base: https://git.example.com/ios
        modules:
          - name: Core
            url: Core.git
            path: Libs/Core
            revison: develop
            path: Libs/Core2
          - name: Core
            path: Libs/Other
          - name: Escape
            path: ../outside
          - name: my/module
            path: Libs/Mine
          - name: NoPath
            url: git@github.com:org/NoPath.git

        """
        let found = problems(text)
        #expect(found.count == 6)
        #expect(found.map { "\($0.location!.line):\($0.location!.column)" } == ["9:5", "10:5", "11:11", "14:11", "15:11", "17:5"])
        let expected = """
        modkit.yml:9:5: error: unknown key 'revison' in module 'Core' (did you mean 'revision'?)
            revison: develop
            ^
        hint: allowed here: name, url, path, revision, groups, version, test, publish, guard, project, depth, specs, implements, guard-mode
        modkit.yml:10:5: error: duplicate key 'path' in module 'Core'; remove one of them
            path: Libs/Core2
            ^
        modkit.yml:8:5: note: 'path' is first given here
            path: Libs/Core
            ^
        modkit.yml:11:11: error: duplicate module name 'Core'; module names must be unique
          - name: Core
                  ^
        modkit.yml:6:11: note: 'Core' is first defined here
          - name: Core
                  ^
        modkit.yml:14:11: error: module path '../outside' escapes the workspace
            path: ../outside
                  ^
        hint: modules must lie below the directory of modkit.yml
        modkit.yml:15:11: error: module name 'my/module' is not a package name
          - name: my/module
                  ^
        hint: use letters, digits, '_', '-' and '.', e.g. 'my_module'
        modkit.yml:17:5: error: module 'NoPath' is missing required key 'path'
          - name: NoPath
            ^
        hint: add 'path: DIR', the module's directory relative to the workspace root
        """
        #expect(ManifestError(diagnostics: found).description == expected)
    }

    @Test func yamlSyntaxErrorIsOneDiagnostic() {
        let found = problems("version: 1\nmodules: [\n  {name: A, path: A}\n")
        #expect(found.count == 1)
        #expect(found.first?.location == SourceLocation(file: "modkit.yml", line: 4, column: 1))
        #expect(found.first?.message == "invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence started at line 2)")
    }

    @Test func tabIndentationIsReportedWhereTheTabIs() {
        let found = problems("version: 1\nmodules:\n  - name: A\n\tpath: A\n")
        #expect(found.count == 1)
        #expect(found.first?.description == """
        modkit.yml:4:1: error: invalid YAML: found a tab character that violates indentation (while scanning a plain scalar started at line 3)
        \tpath: A
        ^
        """)
    }

    @Test func tooNewSchemaVersionAsksForAnUpgrade() {
        let found = problems("version: 2\nmodules:\n  - nme: X\n    fancy: new\n")
        #expect(found.count == 1)
        #expect(found.first?.description == """
        modkit.yml:1:10: error: this manifest needs schema version 2; this modkit understands version 1 — upgrade modkit
        version: 2
                 ^
        """)
    }

    @Test func missingTopLevelKeysAndWrongTypes() {
        let found = problems("workspace: [a]\nmodules: {a: 1}\n")
        #expect(found.map(\.message) == [
            "missing required key 'version'",
            "expected a string for 'workspace', found a sequence",
            "expected a sequence of modules for 'modules', found a mapping",
        ])
    }

    @Test func unknownKeyWithoutSuggestionListsAllowedKeys() {
        let found = problems("version: 1\nmodules: []\ncolour: red\n")
        #expect(found.first?.description == """
        modkit.yml:3:1: error: unknown key 'colour' in modkit.yml
        colour: red
        ^
        hint: allowed here: version, workspace, defaults, templates, modules, release, imports
        """)
    }

    @Test func pathsThatNestInEitherOrder() {
        let found = problems("""
        version: 1
        modules:
          - {name: A, path: Libs/A}
          - {name: B, path: Libs/A/B}
          - {name: C, path: Other/C/}
          - {name: D, path: Other}
          - {name: E, path: ./Libs/A}
          - {name: F, path: /abs}

        """)
        #expect(found.map(\.message) == [
            "module path 'Libs/A/B' lies inside module 'A' at 'Libs/A'; 'A' is a directory module, and only repository modules can hold other modules",
            "module path 'Other' contains module 'C' at 'Other/C'; 'D' is a directory module, and only repository modules can hold other modules",
            "module 'E' has the same path as module 'A' ('Libs/A')",
            "module path '/abs' is absolute",
        ])
        #expect(found[0].location?.line == 4 && found[0].location?.column == 21)
    }

    @Test func repositoryModulesNestButDirectoryModulesDoNot() {
        let nested = try? ManifestLoader.parse(text: """
        version: 1
        modules:
          - {name: bsim, url: "file:///srv/bsim", path: tools/bsim}
          - {name: babblesim_base, url: "file:///srv/base", path: tools/bsim/components}
          - {name: ext, url: "file:///srv/ext", path: tools/bsim/components/ext}

        """, file: file, displayPath: "modkit.yml")
        #expect(nested?.modules.map(\.path) == ["tools/bsim", "tools/bsim/components", "tools/bsim/components/ext"],
                "repository modules inside repository modules are allowed, as in repo and west")
        let found = problems("""
        version: 1
        modules:
          - {name: bsim, url: "file:///srv/bsim", path: tools/bsim}
          - {name: Docs, path: tools/bsim/docs}
          - {name: Sub, path: lib}
          - {name: inner, url: "file:///srv/inner", path: lib/inner}

        """)
        #expect(found.map(\.message) == [
            "module path 'tools/bsim/docs' lies inside module 'bsim' at 'tools/bsim'; 'Docs' is a directory module, part of the manifest repository, so it cannot lie in the work tree of repository module 'bsim'",
            "module path 'lib/inner' lies inside module 'Sub' at 'lib'; 'Sub' is a directory module, and only repository modules can hold other modules",
        ])
    }

    @Test func badValuesAreReportedAtTheValue() {
        let found = problems("""
        version: 1
        defaults:
          tag-format: "release/{snapshto}"
          dir-tag-format: "{module}-{flavour}"
        release:
          steps: [preflight, tset, {run: scripts/lint.sh}, push]
        modules:
          - name: A
            path: A
            url: "https:/example.com/a.git"
            version: 1.0
            guard: [c, objc]
            groups: core

        """)
        #expect(found.map { "\($0.location!.line):\($0.location!.column) \($0.message)" } == [
            "3:15 unknown placeholder '{snapshto}' in 'tag-format' (did you mean '{snapshot}'?)",
            "4:19 unknown placeholder '{flavour}' in 'dir-tag-format'",
            "6:22 unknown release step 'tset' (did you mean 'test'?)",
            "10:10 'https:/example.com/a.git' is not a url: 'https:' lacks '//' after the scheme",
            "11:14 version '1.0' is not a semantic version; only an interface module (one another module implements) has an x.y version",
            "12:16 unknown guard language 'objc'",
        ])
    }

    @Test func validManifestLoads() throws {
        let manifest = try ManifestLoader.parse(text: """
        version: 1
        defaults:
          revision: develop
          url-base: ssh://git@git.example.com/ios/
        release:
          steps: [preflight, bump, {run: "scripts/lint.sh"}]
        modules:
          - name: Core
            url: Core.git
            path: Libs/Core/
            groups: [core, base]
            guard: [swift]
          - name: COSXML
            path: BusinessComponents/./COSXML
            revision: main
            version: 1.2.0-beta.1
            groups: core

        """, file: file, displayPath: "modkit.yml")
        #expect(manifest.workspace == "ws")
        #expect(manifest.modules.map(\.path) == ["Libs/Core", "BusinessComponents/COSXML"])
        #expect(manifest.modules.map(\.kind) == [.repository, .directory])
        #expect(manifest.modules[1].groups == ["core"])
        #expect(manifest.modules[0].guardLanguages == ["swift"])
        #expect(manifest.modules[0].location == SourceLocation(file: "modkit.yml", line: 8, column: 5))
        #expect(manifest.releaseSteps?.map(\.kind) == [.builtin("preflight"), .builtin("bump"), .run("scripts/lint.sh")])
        #expect(manifest.revision(of: manifest.modules[0]) == "develop")
        #expect(manifest.revision(of: manifest.modules[1]) == "main")
        #expect(manifest.defaults.remote == "origin" && manifest.defaults.tagFormat == "{workspace}/{snapshot}")
        #expect(manifest.root.path == "/tmp/ws")
        #expect(manifest.directory(of: manifest.modules[0]).path == "/tmp/ws/Libs/Core")
    }

    @Test func renderingKeepsTabsAndColours() {
        let d = Diagnostic(severity: .warning, message: "odd", location: SourceLocation(file: "f.yml", line: 2, column: 4),
                           sourceLine: "\tab: x", hint: "fix it")
        #expect(d.description == "f.yml:2:4: warning: odd\n\tab: x\n\t  ^\nhint: fix it")
        #expect(d.rendered(colored: true).contains("\u{1B}[1;35mwarning:\u{1B}[0m"))
        #expect(Diagnostic.error("no location").description == "error: no location")
    }

    @Test func aManifestWithAByteOrderMarkLoadsAndItsErrorsKeepTheirPositions() throws {
        let manifest = try ManifestLoader.parse(text: "\u{FEFF}version: 1\nworkspace: W\nmodules:\n  - name: Core\n    path: Libs/Core\n",
                                                file: file, displayPath: "modkit.yml")
        #expect(manifest.modules.map(\.path) == ["Libs/Core"])
        #expect(manifest.modules[0].location == SourceLocation(file: "modkit.yml", line: 4, column: 5))
        let unknown = problems("\u{FEFF}versoin: 1\nmodules: []\n")
        #expect(unknown.first?.description.hasPrefix("modkit.yml:1:1: error: unknown key 'versoin' in modkit.yml (did you mean 'version'?)\nversoin: 1\n^\n") == true)
        let tooNew = problems("\u{FEFF}version: 99\nmodules: []\n")
        #expect(tooNew.map(\.location) == [SourceLocation(file: "modkit.yml", line: 1, column: 10)])
        #expect(tooNew.first?.sourceLine == "version: 99")
    }

    @Test func controlCharactersInPathsAndNamesAreRefusedWhereTheyAre() {
        let text = "version: 1\nmodules:\n  - name: Core\n    path: \"Libs/Core\\0x\"\n  - name: \"Net\\x7F\"\n    path: \"Libs/\\tNet\"\n"
        #expect(problems(text).map { "\($0.location!.line):\($0.location!.column) \($0.message)" } == [
            "4:11 module path \"Libs/Core\\x00x\" holds the control character U+0000 (NUL)",
            "5:11 module name 'Net\u{7F}' is not a package name",
            "6:11 module path \"Libs/\\tNet\" holds the control character U+0009 (TAB)",
        ])
        #expect(RelativePath.normalize("a/b\u{1F}") == .failure(.control("\u{1F}")))
        #expect(RelativePath.normalize("a/b\u{80}") == .success("a/b\u{80}"))
    }

    @Test func unsupportedTagsAreRefusedWhereTheyAre() throws {
        let text = "version: 1\nworkspace: !!binary aGVsbG8=\nmodules:\n  - !custom {name: Core, path: Libs/Core}\n  - name: !!str Net\n    path: !!timestamp 2001-12-14\n"
        #expect(problems(text).map { "\($0.location!.line):\($0.location!.column) \($0.message)" } == [
            "2:12 unsupported YAML tag '!!binary'",
            "4:5 unsupported YAML tag '!custom'",
            "6:11 unsupported YAML tag '!!timestamp'",
        ])
        let plain = try ManifestLoader.parse(text: "version: !!int 1\nmodules:\n  - {name: !!str Core, path: ! Libs/Core}\n", file: file, displayPath: "modkit.yml")
        #expect(plain.modules.map(\.path) == ["Libs/Core"])
    }
}
