import Testing
@testable import ModKit

/// The XML reader behind the repo manifest import: what it reads, where it places elements, and how it rejects broken input.
@Suite struct XMLTreeTests {
    /// The error `text` fails with, or nil (and a recorded issue) if it parses.
    func failure(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> XMLTree.SyntaxError? {
        do {
            let root = try XMLTree.parse(text)
            Issue.record("expected a syntax error, read <\(root.name)>", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    /// Checks the message and the exact `line:column` of the error `text` fails with.
    func expectFailure(_ text: String, _ message: String, at line: Int, _ column: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let error = failure(text, sourceLocation: sourceLocation)
        #expect(error == XMLTree.SyntaxError(message: message, line: line, column: column), sourceLocation: sourceLocation)
    }

    // MARK: Reading

    @Test func readsARealisticRepoManifest() throws {
        let root = try XMLTree.parse("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE manifest [
          <!ELEMENT manifest (remote*, default?, project*)>
          <!-- a comment with ] and > in the internal subset -->
          <!ATTLIST project name CDATA #REQUIRED note CDATA "a ] b > c">
        ]>
        <!-- Android-style manifest -->
        <manifest>
          <remote name="aosp" fetch=".." review="https://android-review.example.com/" />
          <remote  name = 'github'  fetch = "https://github.com/" />
          <default remote="aosp" revision="refs/heads/main" sync-j="4"/>

          <!-- <project name="commented/out"/> -->
          <project name="platform/build" path="build/make" groups="pdk,tradefed">
            <copyfile src="core/root.mk" dest="Makefile"/>
            <linkfile src="CleanSpec.mk" dest="build/CleanSpec.mk"/>
            <annotation name="modkit-name" value="make"/>
          </project>
          <project name="tools/lint" remote="github" revision="v1.0"></project>
          <include name="extras.xml" groups="extra"/>
          <remove-project name="platform/external/legacy" optional="true"/>
        </manifest>
        <!-- trailing comment -->
        <?pi after the root?>

        """)
        #expect(root.name == "manifest")
        #expect(root.children.map(\.name) == ["remote", "remote", "default", "project", "project", "include", "remove-project"])
        #expect(root.children.map(\.line) == [9, 10, 11, 14, 19, 20, 21])
        #expect(root.children[1]["name"] == "github" && root.children[1]["fetch"] == "https://github.com/")
        #expect(root.children[2]["sync-j"] == "4")
        let project = root.children[3]
        #expect(project.children.map(\.name) == ["copyfile", "linkfile", "annotation"])
        #expect(project.children.map(\.line) == [15, 16, 17])
        #expect(project.children[2]["value"] == "make")
        #expect(project.text.isEmpty && root.text.isEmpty)
        #expect(root.children[4].children.isEmpty && root.children[4]["revision"] == "v1.0")
        #expect(root.children[6]["optional"] == "true")
    }

    @Test func keepsAttributesInSourceOrder() throws {
        let element = try XMLTree.parse(#"<project revision="v1" name="a" path="b" groups="x" remote="r"/>"#)
        #expect(element.attributes.map(\.name) == ["revision", "name", "path", "groups", "remote"])
        #expect(element.attributes.map(\.value) == ["v1", "a", "b", "x", "r"])
    }

    @Test func decodesEveryReferenceInTextAndAttributes() throws {
        let element = try XMLTree.parse(#"<a v="&amp;&lt;&gt;&quot;&apos;&#65;&#x42;&#x1F600;" w='say "hi" &amp; it&apos;s'>&lt;b&gt; &amp; &#169;&#xe9;</a>"#)
        #expect(element["v"] == "&<>\"'AB😀")
        #expect(element["w"] == "say \"hi\" & it's")
        #expect(element.text == "<b> & ©é")
    }

    @Test func keepsCDATAAsText() throws {
        let element = try XMLTree.parse("<notice>\n  <![CDATA[Use <b>bold</b> & ]] freely]]> and more\n</notice>")
        #expect(element.text == "Use <b>bold</b> & ]] freely and more")
    }

    @Test func textIsTheDirectTextTrimmed() throws {
        let root = try XMLTree.parse("<a>\n  one <b>inner</b> two\u{A0}\n</a>")
        #expect(root.text == "one  two")
        #expect(root.children[0].text == "inner")
    }

    @Test func readsCRLFAndABOM() throws {
        let root = try XMLTree.parse("\u{FEFF}<?xml version=\"1.0\"?>\r\n<manifest>\r\n  <remote name=\"a\"\r\n   fetch=\"b\r\nc\"/>\r\n\r<project name=\"p\">x\r\ny</project>\r\n</manifest>\r\n")
        #expect(root.line == 2 && root.column == 1)
        #expect(root.children.map(\.line) == [3, 7], "CRLF is one line break, a lone CR another")
        #expect(root.children[0]["fetch"] == "b c", "a line break in an attribute value reads as a space")
        #expect(root.children[1].text == "x\ny")
        #expect(root.children[1].column == 1)
    }

    @Test func selfClosingAndOpenCloseElementsAreAlike() throws {
        let root = try XMLTree.parse("<m><a x=\"1\"/><a x=\"1\"></a><a x=\"1\" ></a ></m>")
        #expect(root.children.count == 3)
        #expect(root.children.allSatisfy { $0.name == "a" && $0["x"] == "1" && $0.children.isEmpty && $0.text.isEmpty })
    }

    @Test func elementsArePlacedAtTheirOpeningBracket() throws {
        let root = try XMLTree.parse("""
        <!-- é comment -->
          <manifest>
        \t<remote name="a" fetch="b"/><default
             remote="a"/>
            <project name="ü"><copyfile src="s" dest="d"/></project>
        </manifest>
        """)
        #expect((root.line, root.column) == (2, 3))
        #expect(root.children.map { [$0.line, $0.column] } == [[3, 2], [3, 30], [5, 5]])
        #expect((root.children[2].children[0].line, root.children[2].children[0].column) == (5, 23), "columns count characters, not bytes")
    }

    // MARK: Errors, each with its message and exact position

    @Test func duplicateAttribute() {
        expectFailure("<manifest>\n  <project name=\"a\" path=\"a\" name=\"b\"/>\n</manifest>",
                      "duplicate attribute 'name' in <project>", at: 2, 30)
    }

    @Test func mismatchedEndTagNamesTheOpenElement() {
        expectFailure("<manifest>\n  <project name=\"a\">\n</manifest>\n",
                      "expected </project> to close <project> from line 2, found </manifest>", at: 3, 1)
    }

    @Test func unclosedElementAtTheEnd() {
        expectFailure("<manifest>\n  <project name=\"a\"/>\n", "<manifest> from line 1 is not closed: the file ends before </manifest>", at: 3, 1)
    }

    @Test func textAfterTheRootElement() {
        expectFailure("<manifest/>\n  stray", "text after the root element </manifest>", at: 2, 3)
    }

    @Test func textBeforeTheRootElement() {
        expectFailure("  hello <manifest/>", "text before the root element", at: 1, 3)
    }

    @Test func elementAfterTheRootElement() {
        expectFailure("<manifest></manifest>\n<!-- ok -->\n<manifest/>", "a second root element after </manifest>: a document has exactly one", at: 3, 1)
    }

    @Test func missingRootElement() {
        expectFailure("<?xml version=\"1.0\"?>\n<!-- nothing -->\n", "the document has no root element", at: 3, 1)
        expectFailure("", "the document has no root element", at: 1, 1)
    }

    @Test func unknownEntity() {
        expectFailure("<a>\n  x &nbsp; y</a>",
                      "unknown entity '&nbsp;': XML knows &amp; &lt; &gt; &quot; &apos; and character references like &#38;", at: 2, 5)
    }

    @Test func malformedOrForbiddenCharacterReference() {
        expectFailure("<a v='&#xZZ;'/>", "malformed character reference '&#x': expected hexadecimal digits and ';'", at: 1, 7)
        expectFailure("<a v='&#12a;'/>", "malformed character reference '&#12': expected digits and ';'", at: 1, 7)
        expectFailure("<a>&#0;</a>", "character reference '&#0;' names a character XML does not allow", at: 1, 4)
        expectFailure("<a>&#xD800;</a>", "character reference '&#xD800;' names a character XML does not allow", at: 1, 4)
        expectFailure("<a>&#99999999999;</a>", "character reference '&#99999999999;' names a character XML does not allow", at: 1, 4)
    }

    @Test func bareAmpersandOrUnendedReference() {
        expectFailure("<a>fish & chips</a>", "'&' does not start a reference; write &amp; for a literal '&'", at: 1, 9)
        expectFailure("<a v=\"&amp x\"/>", "expected ';' to end the reference '&amp'", at: 1, 11)
    }

    @Test func unterminatedComment() {
        expectFailure("<a>\n  <!-- never closed\n</a>\n", "unterminated comment: no '-->' before the end of the file", at: 2, 3)
    }

    @Test func doubleHyphenInsideAComment() {
        expectFailure("<!-- a -- b -->\n<a/>", "'--' is not allowed inside a comment", at: 1, 8)
    }

    @Test func unterminatedAttributeValue() {
        expectFailure("<manifest>\n  <project name=\"a/>\n</manifest>\n",
                      "'<' is not allowed in an attribute value; write &lt;", at: 3, 1)
        expectFailure("<manifest>\n  <project name='a", "unterminated value of attribute 'name': no closing quote before the end of the file", at: 2, 17)
    }

    @Test func lessThanInAnAttributeValue() {
        expectFailure("<a v=\"x < y\"/>", "'<' is not allowed in an attribute value; write &lt;", at: 1, 9)
    }

    @Test func unterminatedTags() {
        expectFailure("<manifest>\n  <project name=\"a\"\n", "unterminated start tag <project>: no '>' before the end of the file", at: 2, 3)
        expectFailure("<manifest>\n</manifest", "unterminated end tag </manifest>: no '>' before the end of the file", at: 2, 1)
        expectFailure("<a>\n<![CDATA[ x ]>\n</a>", "unterminated CDATA section: no ']]>' before the end of the file", at: 2, 1)
        expectFailure("<?xml version=\"1.0\"\n<a/>", "unterminated processing instruction <?xml: no '?>' before the end of the file", at: 1, 1)
        expectFailure("<!DOCTYPE a [\n<!ELEMENT a ANY>\n<a/>", "unterminated <!DOCTYPE: no '>' before the end of the file", at: 1, 1)
    }

    @Test func malformedStartTags() {
        expectFailure("<a>< b/></a>", "expected an element name after '<'", at: 1, 5)
        expectFailure("<a x=\"1\"y=\"2\"/>", "expected white space before attribute 'y' of <a>", at: 1, 9)
        expectFailure("<a x \"1\"/>", "expected '=' after attribute 'x' of <a>", at: 1, 6)
        expectFailure("<a x=1/>", "expected a quoted value for attribute 'x'", at: 1, 6)
        expectFailure("<a x='1' / >", "expected '>' after '/' in <a>", at: 1, 11)
        expectFailure("<a x='1' $/>", "unexpected '$' in <a>", at: 1, 10)
    }

    @Test func misplacedMarkup() {
        expectFailure("</a>", "</a> closes no open element", at: 1, 1)
        expectFailure("<a></a x>", "expected '>' to end </a>", at: 1, 8)
        expectFailure("\n<?xml version=\"1.0\"?><a/>", "the XML declaration <?xml …?> must be at the very start of the file", at: 2, 1)
        expectFailure("<a><!DOCTYPE a></a>", "<!DOCTYPE is only allowed once, before the root element", at: 1, 4)
        expectFailure("<![CDATA[x]]><a/>", "a CDATA section outside the root element", at: 1, 1)
        expectFailure("<a><!ELEMENT a ANY></a>", "unexpected '<!': expected a comment '<!--', '<![CDATA[' or '<!DOCTYPE'", at: 1, 4)
    }

    @Test func errorsAfterAMultiByteCharacterCountCharacters() {
        expectFailure("<a t=\"äöü\" t=\"x\"/>", "duplicate attribute 't' in <a>", at: 1, 12)
    }
}
