import Testing
import YAMLKit

@Suite struct ScalarEmitterTests {
    @Test func plainWhereThatReadsBackTheSame() {
        #expect(YAML.scalar("Libs/Core") == "Libs/Core")
        #expect(YAML.scalar("git@host:ios/Core.git") == "git@host:ios/Core.git")
        #expect(YAML.scalar("git@host:ios/Core.git", in: .flow) == "\"git@host:ios/Core.git\"")
        #expect(YAML.scalar("1.0.0") == "1.0.0")
    }

    @Test func quotedWhereAReaderWouldSeeSomethingElse() {
        for value in ["", "null", "~", "yes", "No", "on", "1.0", "12", "0x1F", "1_000", "-x", "a b #c", "a: b", "key:", "[x]", "{x}",
                      "'q'", "\"q\"", "*alias", "&a", "!tag", "%x", "@x", "`x", "|", ">", "? x", ".inf", "y", "line\nbreak", "tab\there"] {
            #expect(YAML.scalar(value).hasPrefix("\""), "\(value) should be quoted")
        }
    }

    @Test func everyValueReadsBackExactlyInBlockAndFlowContext() throws {
        let values = ["O'Brien", "Tencent's COS SDK", "a\"b\\c", "\u{85}\u{2028}\u{2029}\u{FEFF}", "\u{7F}\u{1B}\u{9F}", "München",
                      "ssh://git@h:22/x.git", "a,b", "a]b", "#x", "x #y", "  padded  ", "-", "--", "---", "..."]
        for value in values {
            let block = try #require(try YAML.parse("key: \(YAML.scalar(value))\n"))
            #expect(block["key"]?.string == value, "block \(value)")
            let flow = try #require(try YAML.parse("{key: \(YAML.scalar(value, in: .flow)), other: 1}\n"))
            #expect(flow["key"]?.string == value, "flow \(value)")
        }
    }
}

@Suite struct SchemaReaderTests {
    @Test func unknownDuplicateMissingAndWrongTypesAreReportedWithPositions() throws {
        let root = try #require(try YAML.parse("name: x\nnmae: y\nname: z\nlist: {a: 1}\n"))
        var reader = YAMLSchemaReader()
        let read = reader.fields(root, allowed: ["name", "list", "path"], in: "the file")
        let fields = try #require(read)
        _ = reader.requiredString(fields, "path", in: "the file")
        let list = try #require(fields["list"])
        _ = reader.strings(list, for: "list")
        let problems = reader.problems.map { "\($0.mark): \($0.message)" }
        #expect(problems == [
            "2:1: unknown key 'nmae' in the file (did you mean 'name'?)",
            "3:1: duplicate key 'name' in the file; remove one of them",
            "1:1: missing key 'path' in the file",
            "4:7: expected a list of strings for 'list', found a mapping",
        ])
        #expect(reader.problems[1].note?.mark == Mark(line: 1, column: 1, offset: 0))
    }

    @Test func namedEntriesReportRepeatedNames() throws {
        let root = try #require(try YAML.parse("a: 1\nb: 2\na: 3\n"))
        var reader = YAMLSchemaReader()
        let entries = reader.namedEntries(root, for: "modules", item: "module")
        #expect(entries.map(\.name) == ["a", "b"])
        #expect(reader.problems.map(\.message) == ["module 'a' is listed twice"])
    }
}

@Suite struct UTF8TextTests {
    @Test func invalidByteIsReportedAtItsLineAndColumn() {
        let bytes = Array("a: 1\nb: 2\nc: 3\nd: 4\nname: é".utf8) + [0xFF] + Array("x\n".utf8)
        #expect(throws: YAMLError.self) { try YAML.text(fromUTF8: bytes) }
        do { _ = try YAML.text(fromUTF8: bytes) } catch {
            #expect(error.mark.line == 5)
            #expect(error.mark.column == 8)
        }
    }

    @Test func validTextPassesAndOverlongFormsDoNot() throws {
        #expect(try YAML.text(fromUTF8: Array("München 🙂\n".utf8)) == "München 🙂\n")
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF5, 0x80, 0x80, 0x80], [0x80]] {
            #expect(throws: YAMLError.self) { try YAML.text(fromUTF8: bad) }
        }
    }
}

@Suite struct FlowStyleMarkTests {
    @Test func marksOnOneLongLineAreExact() throws {
        let items = (0..<300).map { "{name: M\($0), path: Libs/é\($0)}" }
        let text = "modules: [" + items.joined(separator: ", ") + "]\n"
        let root = try #require(try YAML.parse(text))
        let modules = try #require(root["modules"]?.sequence)
        let bytes = Array(text.utf8)
        for (index, item) in modules.items.enumerated() {
            let path = try #require(item["path"]?.scalar)
            let expected = "Libs/é\(index)"
            #expect(path.value == expected)
            #expect(Array(bytes[path.start.offset..<path.end.offset]) == Array(expected.utf8))
            #expect(path.start.column == String(decoding: bytes[..<path.start.offset], as: UTF8.self).unicodeScalars.count + 1)
        }
    }
}
