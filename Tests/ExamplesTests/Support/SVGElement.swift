import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An element of an SVG file read with `XMLParser` (which fails on anything that is not
/// well-formed XML, such as unescaped text): its name, attributes, children and text.
struct SVGElement {
    /// The element's name, such as `circle`.
    var name: String
    /// The element's attributes.
    var attributes: [String: String]
    /// The elements inside it, in order.
    var children: [SVGElement] = []
    /// Its text content, including that of its children.
    var text = ""

    /// Reads an SVG file.
    ///
    /// - Parameter url: the file.
    /// - Returns: its root element.
    /// - Throws: ``SVGElementError`` when the file is not well-formed XML.
    static func read(contentsOf url: URL) throws -> SVGElement {
        let parser = XMLParser(data: try Data(contentsOf: url))
        let reader = Reader()
        parser.delegate = reader
        guard parser.parse(), let root = reader.root else {
            throw SVGElementError(description: "not well-formed XML: \(String(describing: parser.parserError))")
        }
        return root
    }

    /// This element and every element inside it, in document order.
    var all: [SVGElement] {
        [self] + children.flatMap(\.all)
    }

    /// The elements named `name`, this one or inside it, in document order.
    func all(_ name: String) -> [SVGElement] {
        all.filter { $0.name == name }
    }

    /// The element whose `id` is `id`, this one or inside it.
    func element(id: String) -> SVGElement? {
        all.first { $0.attributes["id"] == id }
    }

    /// A numeric attribute, or nil when missing or not a number.
    func number(_ attribute: String) -> Double? {
        attributes[attribute].flatMap(Double.init)
    }

    /// The subpaths of a `<path>`'s `d` made of absolute `M`, `L` and `Z` commands (the only
    /// ones `flickr map` writes), as their points; nil when `d` holds anything else.
    var pathRings: [[(x: Double, y: Double)]]? {
        guard let data = attributes["d"] else { return nil }
        var rings: [[(x: Double, y: Double)]] = []
        var spaced = ""
        for character in data {
            if "MLZ".contains(character) { spaced += " \(character) " } else { spaced.append(character) }
        }
        for token in spaced.split(whereSeparator: { $0.isWhitespace }) {
            switch token {
            case "M": rings.append([])
            case "L", "Z": continue
            default:
                let parts = token.split(separator: ",")
                guard !rings.isEmpty, parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]) else {
                    return nil
                }
                rings[rings.count - 1].append((x, y))
            }
        }
        return rings
    }

    /// Builds the tree from the parser's events.
    private final class Reader: NSObject, XMLParserDelegate {
        var root: SVGElement?
        private var open: [SVGElement] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            open.append(SVGElement(name: name, attributes: attributes))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !open.isEmpty { open[open.count - 1].text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard let element = open.popLast() else { return }
            if open.isEmpty {
                root = element
            } else {
                open[open.count - 1].children.append(element)
                open[open.count - 1].text += element.text
            }
        }
    }
}
