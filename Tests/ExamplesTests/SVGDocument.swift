import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An SVG file as the tests read it: every element with its attributes, its text and the ids
/// of the groups around it, parsed with `XMLParser` (which refuses anything that is not
/// well-formed XML, such as unescaped text).
struct SVGDocument {
    /// One element.
    struct Element {
        let name: String
        let attributes: [String: String]
        var text: String
        /// The `id`s of the enclosing elements, outermost first.
        let groups: [String]

        func isInside(_ group: String) -> Bool { groups.contains(group) }
    }

    let elements: [Element]
    /// The root element's name.
    let root: String?

    init(contentsOf url: URL) throws {
        let parser = XMLParser(data: try Data(contentsOf: url))
        let reader = Reader()
        parser.delegate = reader
        guard parser.parse() else {
            throw SVGDocumentError(description: "not well-formed XML: \(String(describing: parser.parserError))")
        }
        elements = reader.done
        root = reader.root
    }

    /// The elements named `name`, inside the group with id `group` when one is given.
    func elements(_ name: String, in group: String? = nil) -> [Element] {
        elements.filter { $0.name == name && (group.map($0.isInside) ?? true) }
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var done: [Element] = []
        var root: String?
        private var open: [Element] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if root == nil { root = name }
            let groups = open.compactMap { $0.attributes["id"] }
            open.append(Element(name: name, attributes: attributes, text: "", groups: groups))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !open.isEmpty { open[open.count - 1].text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if let element = open.popLast() { done.append(element) }
        }
    }
}

struct SVGDocumentError: Error, CustomStringConvertible {
    let description: String
}
