import ExampleSupport
import Foundation

/// The details a book carries, in the search results and in the library alike.
protocol BookFields {
    /// The Google Books volume id.
    var volumeID: String { get }
    var title: String { get }
    var authors: String? { get }
    var publisher: String? { get }
    var publishedDate: String? { get }
    var summary: String? { get }
    var isbn: String? { get }
    var thumbnailURL: URL? { get }
}

extension BookFields {
    /// One line: `Title — Authors (date)`.
    var line: String {
        let by = authors.map { " — \($0)" } ?? " — unknown author"
        let when = publishedDate.map { " (\($0))" } ?? ""
        return title + by + when
    }

    /// Every stored detail, one per line, labelled.
    var detailLines: [String] {
        var lines = ["Title:       \(title)", "Authors:     \(authors ?? "unknown")"]
        lines.append("Publisher:   \(publisher ?? "unknown")")
        lines.append("Published:   \(publishedDate ?? "unknown")")
        lines.append("ISBN-13:     \(isbn ?? "none")")
        lines.append("Volume id:   \(volumeID)")
        lines.append("Thumbnail:   \(thumbnailURL?.absoluteString ?? "none")")
        if let summary, !summary.isEmpty {
            lines.append("Description: \(summary)")
        }
        return lines
    }
}

extension LibraryBook {
    /// The line of `booklab list`: the book, its rating as stars, its ISBN.
    var listLine: String {
        // A rating written outside booklab may be out of range: it is shown clamped, never trusted.
        let stars =
            rating.map { min(max($0, 0), 5) }.map {
                "  " + String(repeating: "★", count: $0) + String(repeating: "☆", count: 5 - $0)
            }
            ?? ""
        return line + stars + (isbn.map { "  ISBN \($0)" } ?? "")
    }
}
