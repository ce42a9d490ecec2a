import Foundation
import Testing
import YAMLKit

/// One escaping per target language; each literal is read back by a real reader of that language where one is at hand.
@Suite struct StringEscapingTests {
    static let hostile = "O'Brien \"COS\" #{x} \\ tab\there\r\nline \u{1} \u{7F} München 🎉"

    @Test func eachLanguageEscapesItsOwnSpecialCharacters() {
        #expect(StringEscaping.json("a\"b\\\t\u{1}") == "a\\\"b\\\\\\t\\u0001")
        #expect(StringEscaping.swift("a\"b\\(c)\r\n\u{1}") == "a\\\"b\\\\(c)\\r\\n\\u{1}")
        #expect(StringEscaping.rubyDoubleQuoted("say \"#{hi}\"\u{1B}") == "say \\\"\\#{hi}\\\"\\x1B")
        #expect(StringEscaping.rubySingleQuoted("O'Brien \\ x") == "O\\'Brien \\\\ x")
        #expect(StringEscaping.yamlSingleQuoted("it's") == "it''s")
        #expect(StringEscaping.yamlDoubleQuoted("a\"b\u{85}\u{9F}") == "a\\\"b\\N\\x9F")
        #expect(StringEscaping.roff("--path C:\\x é") == "\\-\\-path C:\\ex \\[u00E9]")
        #expect(StringEscaping.roff("🎉") == "\\[u1F389]")
    }

    @Test func jsonAndYAMLReadBackTheSameText() throws {
        let json = try JSONSerialization.jsonObject(with: Data("[\"\(StringEscaping.json(Self.hostile))\"]".utf8)) as? [String]
        #expect(json == [Self.hostile])
        let double = try #require(try YAML.parse("key: \"\(StringEscaping.yamlDoubleQuoted(Self.hostile))\"\n"))
        #expect(double["key"]?.string == Self.hostile)
        let single = "O'Brien's \"x\" #y"
        let singleQuoted = try #require(try YAML.parse("key: '\(StringEscaping.yamlSingleQuoted(single))'\n"))
        #expect(singleQuoted["key"]?.string == single)
    }

    @Test func rubyReadsBackTheSameText() throws {
        let ruby = try #require(["/usr/bin/ruby", "/usr/local/bin/ruby", "/opt/homebrew/bin/ruby"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                "ruby is needed")
        let script = "a = \"\(StringEscaping.rubyDoubleQuoted(Self.hostile))\"\nb = '\(StringEscaping.rubySingleQuoted("O'Brien \\ #{x}"))'\n"
            + "STDOUT.binmode; print a.bytes.pack('C*'), \"\\0\", b\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("modkit-escaping-\(UUID().uuidString).rb")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(("# encoding: utf-8\n" + script).utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ruby)
        process.arguments = [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(String(decoding: output, as: UTF8.self) == Self.hostile + "\0" + "O'Brien \\ #{x}")
    }

    /// A shell word is read back by the real `sh` as the text it came from: nothing in it is expanded or split.
    @Test func shellWordsReachAShellUnchanged() throws {
        let words = [Self.hostile, "plain/path-1.0_x+y=z:@,", "$HOME `id` $(id) *.swift ~ !x", "it's", "x'\u{301}$(echo live)'\u{200D}$(echo live)", "'\u{FE0F}`echo live`", "", "'", "a\nb", "-C"]
        #expect(StringEscaping.shellWord("Libs/Core-1.0") == "Libs/Core-1.0")
        #expect(StringEscaping.shellWord("a b") == "'a b'")
        for word in words {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "printf '%s' " + StringEscaping.shellWord(word)]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(String(decoding: output, as: UTF8.self) == word, "\(StringEscaping.shellWord(word))")
        }
    }
}
