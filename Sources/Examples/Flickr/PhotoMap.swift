import ExampleSupport
import Foundation

/// The SVG of `flickr map`: the stored photos on an equirectangular longitude/latitude
/// grid (−180…180 × −90…90), graticule lines every 30°, one dot per photo with its title
/// as a tooltip, and a title with the count.
struct PhotoMap {
    /// The photos to plot.
    let photos: [Photo]

    private let scale = 3.0  // pixels per degree
    private let margin = (left: 48.0, top: 56.0, right: 24.0, bottom: 40.0)

    private var plotWidth: Double { 360 * scale }
    private var plotHeight: Double { 180 * scale }

    /// The map as an SVG document.
    func svg() -> String {
        let width = margin.left + plotWidth + margin.right
        let height = margin.top + plotHeight + margin.bottom
        var lines: [String] = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(n(width))" height="\#(n(height))" "#
                + #"viewBox="0 0 \#(n(width)) \#(n(height))" font-family="Helvetica, Arial, sans-serif">"#,
            "<title>\(Self.escape(title))</title>",
            #"<rect width="100%" height="100%" fill="rgb(255,255,255)"/>"#,
            #"<text x="\#(n(margin.left))" y="24" font-size="18" font-weight="bold" fill="rgb(34,34,34)">"#
                + "\(Self.escape(title))</text>",
            #"<text x="\#(n(margin.left))" y="44" font-size="12" fill="rgb(85,85,85)">"#
                + "\(Self.escape(subtitle))</text>",
            #"<rect x="\#(n(margin.left))" y="\#(n(margin.top))" width="\#(n(plotWidth))" "#
                + #"height="\#(n(plotHeight))" fill="rgb(234,242,248)" stroke="rgb(127,140,141)" stroke-width="1"/>"#,
        ]
        lines += graticule()
        lines.append(#"<g fill="rgb(214,39,40)" fill-opacity="0.7" stroke="rgb(123,17,19)" stroke-width="0.5">"#)
        for photo in photos {
            let (x, y) = point(latitude: photo.latitude, longitude: photo.longitude)
            let label = "\(photo.title.isEmpty ? "(untitled)" : photo.title) — \(photo.ownerName)"
            lines.append(
                #"<circle cx="\#(n(x))" cy="\#(n(y))" r="3"><title>\#(Self.escape(label))</title></circle>"#)
        }
        lines.append("</g>")
        lines += clusterLabels()
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Dots of one place lie on top of each other, so each 5° cell holding more than one photo
    /// gets its count written beside its photos' mean position.
    private func clusterLabels() -> [String] {
        let cells = Dictionary(grouping: photos) { photo in
            [Int((photo.latitude / 5).rounded(.down)), Int((photo.longitude / 5).rounded(.down))]
        }
        let labels = cells.values.filter { $0.count > 1 }
            .map { photos -> (x: Double, y: Double, count: Int) in
                let count = Double(photos.count)
                let (x, y) = point(
                    latitude: photos.map(\.latitude).reduce(0, +) / count,
                    longitude: photos.map(\.longitude).reduce(0, +) / count)
                return (x, y, photos.count)
            }
            .sorted { ($0.x, $0.y) < ($1.x, $1.y) }
        guard !labels.isEmpty else { return [] }
        return [#"<g font-size="11" font-weight="bold" fill="rgb(123,17,19)">"#]
            + labels.map { #"<text x="\#(n($0.x + 6))" y="\#(n($0.y - 5))">\#($0.count)</text>"# } + ["</g>"]
    }

    private var title: String {
        "Recent geo-referenced Flickr photos: \(FetchReport.count(photos.count, "photo"))"
    }

    private var subtitle: String {
        "Longitude −180° to 180°, latitude −90° to 90°; grid every 30°; one dot per photo, "
            + "with the number of photos beside each cluster."
    }

    /// The grid: a line every 30° (the equator and prime meridian darker), labelled on the edges.
    private func graticule() -> [String] {
        var lines = [#"<g stroke="rgb(149,165,166)" stroke-width="0.6" fill="none">"#]
        for longitude in stride(from: -150, through: 150, by: 30) {
            let (x, _) = point(latitude: 0, longitude: Double(longitude))
            let style = longitude == 0 ? #" stroke="rgb(52,73,94)" stroke-width="1""# : ""
            lines.append(
                #"<line x1="\#(n(x))" y1="\#(n(margin.top))" x2="\#(n(x))" y2="\#(n(margin.top + plotHeight))"\#(style)/>"#
            )
        }
        for latitude in stride(from: -60, through: 60, by: 30) {
            let (_, y) = point(latitude: Double(latitude), longitude: 0)
            let style = latitude == 0 ? #" stroke="rgb(52,73,94)" stroke-width="1""# : ""
            lines.append(
                #"<line x1="\#(n(margin.left))" y1="\#(n(y))" x2="\#(n(margin.left + plotWidth))" y2="\#(n(y))"\#(style)/>"#
            )
        }
        lines.append("</g>")
        lines.append(#"<g font-size="10" fill="rgb(85,85,85)">"#)
        for longitude in stride(from: -180, through: 180, by: 30) {
            let (x, _) = point(latitude: 0, longitude: Double(longitude))
            lines.append(
                #"<text x="\#(n(x))" y="\#(n(margin.top + plotHeight + 16))" text-anchor="middle">"#
                    + "\(Self.escape(degrees(longitude, positive: "E", negative: "W")))</text>")
        }
        for latitude in stride(from: -90, through: 90, by: 30) {
            let (_, y) = point(latitude: Double(latitude), longitude: 0)
            lines.append(
                #"<text x="\#(n(margin.left - 6))" y="\#(n(y + 3))" text-anchor="end">"#
                    + "\(Self.escape(degrees(latitude, positive: "N", negative: "S")))</text>")
        }
        lines.append("</g>")
        return lines
    }

    private func point(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        (margin.left + (longitude + 180) * scale, margin.top + (90 - latitude) * scale)
    }

    private func degrees(_ value: Int, positive: String, negative: String) -> String {
        value == 0 ? "0°" : "\(abs(value))°\(value > 0 ? positive : negative)"
    }

    /// A number for an attribute: at most two decimals, no exponent.
    private func n(_ value: Double) -> String {
        String(format: "%.2f", value).replacingOccurrences(of: ".00", with: "")
    }

    /// Text made safe for SVG element content and attribute values.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default:
                // XML 1.0 forbids most control characters, even escaped.
                if let scalar = character.unicodeScalars.first, scalar.value < 0x20,
                    !["\t", "\n", "\r"].contains(character)
                {
                    continue
                }
                escaped.append(character)
            }
        }
        return escaped
    }
}
