/// The legend of `flickr map`: a box below the plot.
extension PhotoMap {
    /// The photo counts the legend draws a circle for.
    static let legendCounts = [1, 10, 50]

    /// The line naming the land's source, as the legend shows it.
    static let landSource = "Land: Natural Earth 1:110m (naturalearthdata.com), public domain"

    /// The top of the legend's box, below the plot's edge labels.
    var legendTop: Double { margin.top + plotHeight + margin.bottom }

    /// The height of the legend's box: room for its biggest circle.
    var legendHeight: Double { 2 * Self.radius(photos: Self.legendCounts.max() ?? 1) + 16 }

    /// The legend, `<g id="legend">`: circles for ``legendCounts`` photos sized as on the map,
    /// swatches for land and sea, and the land's source.
    func legend() -> [String] {
        let middle = legendTop + legendHeight / 2
        let baseline = n(middle + 4)
        var lines = [
            #"<g id="legend" font-size="11" fill="rgb(51,51,51)">"#,
            #"<rect x="\#(n(margin.left))" y="\#(n(legendTop))" width="\#(n(plotWidth))" "#
                + #"height="\#(n(legendHeight))" fill="rgb(255,255,255)" stroke="rgb(189,195,199)" stroke-width="1"/>"#,
        ]
        var x = margin.left + 12
        let heading = "Photos at one place (or 1° cell):"
        lines.append(#"<text x="\#(n(x))" y="\#(baseline)" font-weight="bold">\#(Self.escape(heading))</text>"#)
        x += Self.textWidth(heading, fontSize: 11) + 12
        for count in Self.legendCounts {
            let radius = Self.radius(photos: count)
            let label = FetchReport.count(count, "photo")
            lines.append(
                #"<circle cx="\#(n(x + radius))" cy="\#(n(middle))" r="\#(n(radius))" fill="\#(Paint.dot)" "#
                    + #"fill-opacity="0.7" stroke="\#(Paint.dotEdge)" stroke-width="0.5"/>"#)
            lines.append(#"<text x="\#(n(x + 2 * radius + 4))" y="\#(baseline)">\#(Self.escape(label))</text>"#)
            x += 2 * radius + 4 + Self.textWidth(label, fontSize: 11) + 16
        }
        x += 8
        for (name, fill) in [("Land", Paint.land), ("Sea", Paint.sea)] {
            lines.append(
                #"<rect x="\#(n(x))" y="\#(n(middle - 6))" width="18" height="12" fill="\#(fill)" "#
                    + #"stroke="\#(Paint.coast)" stroke-width="0.5"/>"#)
            lines.append(#"<text x="\#(n(x + 24))" y="\#(baseline)">\#(Self.escape(name))</text>"#)
            x += 24 + Self.textWidth(name, fontSize: 11) + 16
        }
        lines.append(
            #"<text x="\#(n(margin.left + plotWidth - 12))" y="\#(baseline)" text-anchor="end" fill="rgb(85,85,85)">"#
                + "\(Self.escape(Self.landSource))</text>")
        lines.append("</g>")
        return lines
    }
}
