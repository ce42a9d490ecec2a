import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML element with its attributes in source order and the line it was read on.
struct XMLElementNode {
    var name: String
    var attributes: [(name: String, value: String)]
    var line: Int
    var column: Int
    var children: [XMLElementNode] = []
    /// Text directly inside the element, trimmed.
    var text = ""

    subscript(attribute: String) -> String? {
        attributes.first { $0.name == attribute }?.value
    }
}

/// Parses a small XML document into `XMLElementNode`s with XMLParser (FoundationXML on Linux).
enum XMLTree {
    struct SyntaxError: Error {
        var message: String
        var line: Int
        var column: Int
    }

    static func parse(_ text: String) throws(SyntaxError) -> XMLElementNode {
        let parser = XMLParser(data: Data(text.utf8))
        let builder = Builder()
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        if !ok || builder.root == nil {
            let message = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "not an XML document"
            throw SyntaxError(message: cleaned(message), line: max(1, parser.lineNumber), column: max(1, parser.columnNumber))
        }
        return builder.root!
    }

    private static func cleaned(_ message: String) -> String {
        message.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Collects elements as the parser reports them; XMLParser's attribute dictionary loses order, so names are sorted.
    private final class Builder: NSObject, XMLParserDelegate {
        var root: XMLElementNode?
        private var stack: [XMLElementNode] = []

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            let sorted = attributes.keys.sorted().map { (name: $0, value: attributes[$0]!) }
            stack.append(XMLElementNode(name: elementName, attributes: sorted, line: parser.lineNumber, column: parser.columnNumber))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard var element = stack.popLast() else { return }
            element.text = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }
    }
}
