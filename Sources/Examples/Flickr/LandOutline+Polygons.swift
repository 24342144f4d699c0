/// The land outline as points: ``LandOutline/encoded`` parsed once, when first used.
extension LandOutline {
    /// A point of the outline, in degrees.
    typealias Point = (longitude: Double, latitude: Double)

    /// A polygon of the outline: its outer ring, then any holes (lakes inside it).
    typealias Polygon = [[Point]]

    /// The land's polygons, largest first (121 of them, about 1,700 points).
    static let polygons: [Polygon] = parse(encoded)

    /// Polygons from text in the format of ``LandOutline/encoded``.
    ///
    /// A token that is not `longitude,latitude` within −180…180 and −90…90 is skipped, and so
    /// is a ring of fewer than three points, so damaged text gives less land, never a crash.
    ///
    /// - Parameter text: points separated by whitespace, `;` before a hole, `|` between polygons.
    /// - Returns: the polygons, in the order of the text.
    static func parse(_ text: String) -> [Polygon] {
        var polygons: [Polygon] = []
        var rings: [[Point]] = []
        var ring: [Point] = []
        func endRing() {
            if ring.count >= 3 { rings.append(ring) }
            ring = []
        }
        func endPolygon() {
            endRing()
            if !rings.isEmpty { polygons.append(rings) }
            rings = []
        }
        for token in text.split(whereSeparator: { $0.isWhitespace }) {
            switch token {
            case "|": endPolygon()
            case ";": endRing()
            default:
                let parts = token.split(separator: ",")
                guard parts.count == 2, let longitude = Double(parts[0]), let latitude = Double(parts[1]),
                    (-180...180).contains(longitude), (-90...90).contains(latitude)
                else { continue }
                ring.append((longitude, latitude))
            }
        }
        endPolygon()
        return polygons
    }
}
