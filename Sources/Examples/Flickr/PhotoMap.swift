import ExampleSupport
import Foundation

/// The SVG of `flickr map`: the stored photos on an equirectangular longitude/latitude map
/// (−180…180 × −90…90) of the land (Natural Earth's public-domain 1:110m outline, see
/// ``LandOutline``), graticule lines every 30°, one circle per place whose area is proportional
/// to its photos (its count beside it, its photos in a tooltip), a title with the count, and a
/// legend below.
struct PhotoMap {
    /// The photos to plot.
    let photos: [Photo]
    /// The photographers' names by NSID, for the tooltips.
    let photographers: [String: String]

    /// Pixels per degree.
    let scale = 3.0
    /// The space around the plot: for the title, the edge labels and (below) the legend.
    let margin = (left: 48.0, top: 56.0, right: 24.0, bottom: 28.0)

    /// The plot's width: 360° of longitude.
    var plotWidth: Double { 360 * scale }
    /// The plot's height: 180° of latitude.
    var plotHeight: Double { 180 * scale }

    /// The colours of the map, as SVG paint.
    enum Paint {
        /// The sea: the plot's background.
        static let sea = "rgb(211,230,243)"
        /// The land's fill.
        static let land = "rgb(241,237,224)"
        /// The coastline.
        static let coast = "rgb(150,138,112)"
        /// The circles' fill.
        static let dot = "rgb(214,39,40)"
        /// The circles' outline and the counts.
        static let dotEdge = "rgb(123,17,19)"
    }

    /// The map as an SVG document.
    func svg() -> String {
        let width = margin.left + plotWidth + margin.right
        let height = legendTop + legendHeight + 12
        let frame = #"x="\#(n(margin.left))" y="\#(n(margin.top))" width="\#(n(plotWidth))" height="\#(n(plotHeight))""#
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
            #"<rect id="sea" \#(frame) fill="\#(Paint.sea)"/>"#,
        ]
        lines += land()
        lines += graticule()
        lines.append(#"<rect \#(frame) fill="none" stroke="rgb(127,140,141)" stroke-width="1"/>"#)
        lines += clusters()
        lines += legend()
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    private var title: String {
        "Recent geo-referenced Flickr photos: \(FetchReport.count(photos.count, "photo"))"
    }

    private var subtitle: String {
        "Longitude −180° to 180°, latitude −90° to 90° (equirectangular), grid every 30°; "
            + "one circle per place, its area proportional to its photos, their number beside it."
    }

    /// The radius of a circle standing for `count` photos: its area grows with the count
    /// (3 pixels for one photo), up to 30 pixels (100 photos or more).
    ///
    /// - Parameter count: the number of photos, at least 1.
    /// - Returns: the radius in pixels.
    static func radius(photos count: Int) -> Double {
        min(30, 3 * Double(max(1, count)).squareRoot())
    }

    // MARK: Land

    /// The land: one filled `<path>` per polygon of ``LandOutline``, its holes cut out
    /// (even-odd), under the graticule and the photos.
    private func land() -> [String] {
        var lines = [
            #"<g id="land" fill="\#(Paint.land)" stroke="\#(Paint.coast)" stroke-width="0.5" "#
                + #"stroke-linejoin="round" fill-rule="evenodd">"#
        ]
        for polygon in LandOutline.polygons {
            let rings = polygon.map { ring in
                let points = ring.map { place in
                    let (x, y) = point(latitude: place.latitude, longitude: place.longitude)
                    return "\(n(x)),\(n(y))"
                }
                return "M\(points[0]) L\(points.dropFirst().joined(separator: " "))Z"
            }
            lines.append(#"<path d="\#(rings.joined(separator: " "))"/>"#)
        }
        lines.append("</g>")
        return lines
    }

    // MARK: Photos

    /// The photos, one `<g>` per ``PhotoCluster``: a circle with a tooltip and, for more than
    /// one photo, the count beside it. The biggest come first, so smaller circles lie on top.
    private func clusters() -> [String] {
        var lines = [
            #"<g id="photos" fill="\#(Paint.dot)" fill-opacity="0.7" stroke="\#(Paint.dotEdge)" "#
                + #"stroke-width="0.5" font-size="11" font-weight="bold">"#
        ]
        var taken: [LabelBox] = []
        for cluster in PhotoCluster.clusters(of: photos, photographers: photographers) {
            let (x, y) = point(latitude: cluster.latitude, longitude: cluster.longitude)
            let radius = Self.radius(photos: cluster.count)
            var group =
                #"<g><circle cx="\#(n(x))" cy="\#(n(y))" r="\#(n(radius))">"#
                + "<title>\(Self.escape(cluster.tooltip))</title></circle>"
            if cluster.count > 1 {
                let text = "\(cluster.count)"
                let label = countPlacement(text, x: x, y: y, radius: radius, taken: &taken)
                group +=
                    #"<text x="\#(n(label.x))" y="\#(n(label.y))" text-anchor="\#(label.anchor)" "#
                    + #"fill="\#(Paint.dotEdge)" fill-opacity="1" stroke="rgb(255,255,255)" stroke-width="2.5" "#
                    + #"stroke-linejoin="round" paint-order="stroke">\#(text)</text>"#
            }
            lines.append(group + "</g>")
        }
        lines.append("</g>")
        return lines
    }

    /// The space a count's text takes: left, top, right, bottom in pixels.
    private typealias LabelBox = (left: Double, top: Double, right: Double, bottom: Double)

    /// Where a count goes: right of its circle, or else left, above or below, whichever first
    /// keeps clear of the counts already placed (so two places close together stay legible).
    private func countPlacement(
        _ text: String, x: Double, y: Double, radius: Double, taken: inout [LabelBox]
    ) -> (x: Double, y: Double, anchor: String) {
        let width = Self.textWidth(text, fontSize: 11)
        let candidates: [(x: Double, y: Double, anchor: String, left: Double)] = [
            (x + radius + 3, y + 4, "start", x + radius + 3),
            (x - radius - 3, y + 4, "end", x - radius - 3 - width),
            (x, y - radius - 3, "middle", x - width / 2),
            (x, y + radius + 12, "middle", x - width / 2),
        ]
        let boxes = candidates.map { LabelBox($0.left, $0.y - 9, $0.left + width, $0.y + 2) }
        let free = boxes.firstIndex { box in
            !taken.contains { box.left < $0.right && $0.left < box.right && box.top < $0.bottom && $0.top < box.bottom }
        }
        let chosen = free ?? 0
        taken.append(boxes[chosen])
        return (candidates[chosen].x, candidates[chosen].y, candidates[chosen].anchor)
    }

    // MARK: Grid

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

    private func degrees(_ value: Int, positive: String, negative: String) -> String {
        value == 0 ? "0°" : "\(abs(value))°\(value > 0 ? positive : negative)"
    }

    // MARK: Helpers

    /// The position of a place on the plot, in pixels (equirectangular).
    func point(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        (margin.left + (longitude + 180) * scale, margin.top + (90 - latitude) * scale)
    }

    /// A number for an attribute (see `SVGText.number(_:)`).
    func n(_ value: Double) -> String { SVGText.number(value) }

    /// Roughly how wide a line of text is in Helvetica, in pixels, for laying out labels.
    static func textWidth(_ text: String, fontSize: Double) -> Double {
        Double(text.count) * fontSize * 0.56
    }

    /// Text made safe for SVG (see `SVGText.escape(_:)`).
    static func escape(_ text: String) -> String { SVGText.escape(text) }
}
