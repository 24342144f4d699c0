import Foundation
import Testing

/// `Docs/index.md` links every DocC article and landing page of every module, and every link
/// it has to a catalog leads to a file.
@Suite struct DocumentationIndexTests {
    /// The Markdown files of every `Sources/<Module>/<Module>.docc` catalog, relative to the root.
    static func catalogArticles() throws -> [String] {
        let sources = Repository.root.appendingPathComponent("Sources")
        var articles: [String] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let catalog = sources.appendingPathComponent(module).appendingPathComponent("\(module).docc")
            guard let files = FileManager.default.enumerator(atPath: catalog.path) else { continue }
            for case let file as String in files where file.hasSuffix(".md") {
                articles.append("Sources/\(module)/\(module).docc/\(file)")
            }
        }
        return articles.sorted()
    }

    /// The targets of the index's links into `../Sources/`, relative to the root.
    static func linkedArticles(_ index: String) -> Set<String> {
        var links: Set<String> = []
        var rest = index[...]
        while let start = rest.range(of: "](../Sources/") {
            let target = rest[start.upperBound...].prefix { $0 != ")" && $0 != "#" }
            links.insert("Sources/" + target)
            rest = rest[start.upperBound...]
        }
        return links
    }

    @Test func theIndexLinksEveryArticle() throws {
        let articles = try Self.catalogArticles()
        let linked = Self.linkedArticles(try Repository.text("Docs/index.md"))
        #expect(articles.count >= 20, "found \(articles)")
        for article in articles {
            #expect(linked.contains(article), "Docs/index.md does not link \(article)")
        }
    }

    @Test func everyArticleTheIndexLinksExists() throws {
        let linked = Self.linkedArticles(try Repository.text("Docs/index.md"))
        #expect(!linked.isEmpty)
        for article in linked.sorted() {
            let exists = FileManager.default.fileExists(atPath: Repository.root.appendingPathComponent(article).path)
            #expect(exists, "Docs/index.md links \(article), which does not exist")
        }
    }

    @Test func theLinkReaderFindsLinksInTables() {
        let links = Self.linkedArticles(
            "| [A](../Sources/M/M.docc/A.md) | a |\n| [B](../Sources/M/M.docc/Articles/B.md#part) | b |")
        #expect(links == ["Sources/M/M.docc/A.md", "Sources/M/M.docc/Articles/B.md"])
    }
}
