import Testing
import YAMLKit

@Suite struct YAMLParserTests {
    @Test func marksOfNestedNodes() throws {
        let text = """
        version: 1
        modules:
          - name: Core
            path: Libs/Core
            groups: [core, base]

        """
        let root = try #require(try YAML.parse(text))
        #expect(root.start == Mark(line: 1, column: 1, offset: 0))
        let modules = try #require(root["modules"]?.sequence)
        #expect(modules.start.line == 3 && modules.start.column == 3)
        let module = try #require(modules.items.first?.mapping)
        #expect(module.start == Mark(line: 3, column: 5, offset: 24))
        let path = try #require(module["path"]?.scalar)
        #expect(path.value == "Libs/Core")
        #expect(path.start == Mark(line: 4, column: 11, offset: 45))
        #expect(path.end == Mark(line: 4, column: 20, offset: 54))
        let groups = try #require(module["groups"]?.sequence)
        #expect(groups.style == .flow)
        #expect(groups.items.map { $0.start.column } == [14, 20])
        #expect(module.style == .block)
    }

    @Test func duplicateKeysArePreservedInOrder() throws {
        let root = try #require(try YAML.parse("a: 1\nb: 2\na: 3\n")?.mapping)
        #expect(root.entries.map { $0.key.string } == ["a", "b", "a"])
        #expect(root.entries[2].key.start == Mark(line: 3, column: 1, offset: 10))
        #expect(root["a"]?.int == 1)
    }

    @Test func tabIndentationIsASyntaxErrorWithPosition() {
        #expect {
            _ = try YAML.parse("a:\n\tb: 1\n")
        } throws: { error in
            let e = error as! YAMLError
            return e.mark.line == 2 && e.mark.column == 1 && e.message == "found character that cannot start any token"
        }
    }

    @Test func unclosedFlowSequence() throws {
        do {
            _ = try YAML.parse("key: [one, two\n")
            Issue.record("expected an error")
        } catch {
            #expect(error.mark.line == 2 && error.mark.column == 1)
            #expect(error.message == "did not find expected ',' or ']'")
            #expect(error.context == "while parsing a flow sequence")
            #expect(error.contextMark == Mark(line: 1, column: 6, offset: 5))
            #expect(error.description == "2:1: did not find expected ',' or ']' (while parsing a flow sequence started at 1:6)")
        }
    }

    @Test func aliasesResolveToTheAnchoredNode() throws {
        let root = try #require(try YAML.parse("base: &b {remote: origin}\ncopy: *b\nlist: [&x 1, *x]\n"))
        #expect(root["copy"]?["remote"]?.string == "origin")
        #expect(root["copy"]?.start == root["base"]?.start)
        #expect(root["list"]?.sequence?.items.map(\.int) == [1, 1])
        #expect(throws: YAMLError.self) { try YAML.parse("a: *missing\n") }
    }

    @Test func blockAndFlowStylesAndScalarStyles() throws {
        let text = "m: {a: 1}\ns:\n  - 'q'\n  - \"d\"\nl: |\n  line\nf: >\n  folded\np: plain\n"
        let root = try #require(try YAML.parse(text))
        #expect(root["m"]?.mapping?.style == .flow)
        #expect(root["s"]?.sequence?.style == .block)
        let styles = root["s"]?.sequence?.items.compactMap { $0.scalar?.style }
        #expect(styles == [.singleQuoted, .doubleQuoted])
        #expect(root["l"]?.scalar?.style == .literal)
        #expect(root["l"]?.string == "line\n")
        #expect(root["f"]?.scalar?.style == .folded)
        #expect(root["p"]?.scalar?.style == .plain)
    }

    @Test func crlfInputCountsLinesOnce() throws {
        let root = try #require(try YAML.parse("a: 1\r\nb: 2\r\n\r\nc: 3\r\n"))
        let c = try #require(root.mapping?.entries.last?.key)
        #expect(c.start == Mark(line: 4, column: 1, offset: 14))
        #expect(root["b"]?.string == "2")
    }

    @Test func columnsCountCharactersAndOffsetsCountBytes() throws {
        let root = try #require(try YAML.parse("name: \"日本\"\nübër: x\n"))
        let value = try #require(root["übër"]?.scalar)
        #expect(value.start == Mark(line: 2, column: 7, offset: 23))
        #expect(root["name"]?.scalar?.end == Mark(line: 1, column: 11, offset: 14))
    }

    @Test func scalarValues() throws {
        let root = try #require(try YAML.parse("""
        i: 42
        n: -1_000
        h: 0x1F
        q: "7"
        t: yes
        f: Off
        z: ~
        e:
        s: null
        qs: 'null'

        """))
        #expect(root["i"]?.int == 42)
        #expect(root["n"]?.int == -1000)
        #expect(root["h"]?.int == 31)
        #expect(root["q"]?.int == nil)
        #expect(root["q"]?.string == "7")
        #expect(root["t"]?.bool == true)
        #expect(root["f"]?.bool == false)
        #expect(root["z"]?.isNull == true)
        #expect(root["e"]?.isNull == true)
        #expect(root["s"]?.string == nil)
        #expect(root["qs"]?.string == "null")
        #expect(root["e"]?.kindDescription == "nothing")
    }

    @Test func documents() throws {
        #expect((try YAML.parse("")) == nil)
        #expect((try YAML.parse("# only a comment\n")) == nil)
        #expect(try YAML.parseDocuments("a: 1\n---\nb: 2\n").count == 2)
        do {
            _ = try YAML.parse("a: 1\n---\nb: 2\n")
            Issue.record("expected an error")
        } catch {
            #expect(error.mark.line == 2 && error.mark.column == 1)
        }
    }

    @Test func controlCharactersAreReportedAtTheirPosition() {
        do {
            _ = try YAML.parse("a: 1\nb: x\u{7}y\n")
            Issue.record("expected an error")
        } catch {
            #expect(error.mark == Mark(line: 2, column: 5, offset: 9))
        }
    }

    @Test func aByteOrderMarkIsReadAsIfAbsent() throws {
        let root = try #require(try YAML.parse("\u{FEFF}version: 1\nworkspace: W\n")?.mapping)
        #expect(root.entries.map { $0.key.string } == ["version", "workspace"])
        #expect(root.entries[0].key.start == Mark(line: 1, column: 1, offset: 3))
        #expect(root["workspace"]?.scalar?.start == Mark(line: 2, column: 12, offset: 25))
        #expect(try YAML.parseDocuments("\u{FEFF}a: 1\n---\nb: 2\n").count == 2)
    }

    @Test func errorsInAFileWithAByteOrderMarkKeepTheirPositions() {
        do {
            _ = try YAML.parse("\u{FEFF}key: [one, two\n")
            Issue.record("expected an error")
        } catch {
            #expect(error.mark.line == 2 && error.mark.column == 1)
            #expect(error.contextMark == Mark(line: 1, column: 6, offset: 8))
        }
        do {
            _ = try YAML.parse("\u{FEFF}a: x\u{7}y\n")
            Issue.record("expected an error")
        } catch {
            #expect(error.mark == Mark(line: 1, column: 5, offset: 7))
        }
    }
}
