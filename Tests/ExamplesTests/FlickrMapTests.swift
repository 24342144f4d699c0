import ExampleSupport
import Foundation
import Persistence
import TestSupport
import Testing

/// `flickr map` end to end: the built program writes the SVG, and the test reads it back
/// with `XMLParser`: the land (its path data parsed and checked against known places), the
/// grid, one circle per place with its count, and the legend.
@Suite struct FlickrMapTests {
    /// The circle radius the map promises for `count` photos: area proportional to the count.
    static func radius(photos count: Int) -> Double {
        min(30, 3 * Double(count).squareRoot())
    }

    @Test func mapDrawsTheLandTheGridOneCirclePerPlaceAndTheLegend() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        #expect(try await sandbox.run(["fetch"]).status == 0)
        // Photos another program stored without a place id: one alone, with text that must be
        // escaped, and two in the same 1° cell (45°S…46°S, 170°E…171°E), which make one circle.
        try sandbox.insert([
            Self.photo("1", title: #"<Tom & Jerry's "chase">"#, owner: "A & B", latitude: -17.5, longitude: -149.5),
            Self.photo("2", title: "Harbour", owner: "C", latitude: -45.87, longitude: 170.5, age: 0),
            Self.photo("3", title: "Peninsula", owner: "D", latitude: -45.2, longitude: 170.9, age: 60),
        ])
        let stored = try sandbox.storedPhotos()
        let out = sandbox.directory.file("map.svg")

        let run = try await sandbox.run(["map", "--out", out.path])
        #expect(run.status == 0, "\(run)")

        let svg = try SVGElement.read(contentsOf: out)
        #expect(svg.name == "svg")
        let texts = svg.all("text").map(\.text)
        #expect(texts.contains("Recent geo-referenced Flickr photos: \(stored.count) photos"))
        #expect(texts.contains { $0.contains("one circle per place") })
        #expect(svg.all("line").count == 5 + 11)  // graticule every 30°: 5 parallels, 11 meridians inside the frame
        let plot = try #require(Plot(svg))
        try Self.expectLand(in: svg, plot: plot)

        // One circle per place id, and per 1° cell for photos without one.
        let expected = Dictionary(grouping: stored) { photo in
            photo.placeID ?? "cell \(Int(photo.latitude.rounded(.down))) \(Int(photo.longitude.rounded(.down)))"
        }
        #expect(run.output.contains("wrote a map of \(stored.count) photos at \(expected.count) places to "), "\(run)")
        let clusters = try Self.clusters(in: svg)
        #expect(clusters.count == expected.count)
        #expect(clusters.map(\.count).reduce(0, +) == stored.count)
        #expect(clusters.map(\.count).sorted() == expected.values.map(\.count).sorted())
        for cluster in clusters {
            #expect(abs(cluster.radius - Self.radius(photos: cluster.count)) < 0.01, "\(cluster)")
            #expect(plot.contains(x: cluster.x, y: cluster.y), "\(cluster)")
            if cluster.count > 1 {
                #expect(cluster.title.hasPrefix("\(cluster.count) photos near "), "\(cluster)")
            }
        }
        #expect(clusters.map(\.count) == clusters.map(\.count).sorted(by: >))  // the biggest drawn first
        #expect(clusters.contains { $0.count == 1 && $0.title == #"<Tom & Jerry's "chase"> — A & B"# })
        let cell = try #require(clusters.first { $0.title.contains("Harbour — C") })
        #expect(cell.count == 2 && cell.title.hasPrefix("2 photos near 45.5°S 170.7°E: Harbour — C; Peninsula — D"))
        let (x, y) = plot.point(longitude: (170.5 + 170.9) / 2, latitude: (-45.87 - 45.2) / 2)
        #expect(abs(cell.x - x) < 0.01 && abs(cell.y - y) < 0.01, "the circle sits at the photos' mean position")

        try Self.expectLegend(in: svg)
    }

    @Test func photosSharingAPlaceIDMakeOneCircleAtTheirMeanPosition() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        try sandbox.insert(
            (0..<12).map { index in
                Self.photo(
                    "p\(index)", title: "Photo \(index)", owner: "Owner \(index)", latitude: 40 + Double(index % 3),
                    longitude: -3 - Double(index % 4), placeID: "plaza", age: index)
            } + [Self.photo("lone", title: "Lone", owner: "E", latitude: 40.5, longitude: -3.5)])
        let out = sandbox.directory.file("map.svg")

        let run = try await sandbox.run(["map", "--out", out.path])
        #expect(run.status == 0, "\(run)")
        let svg = try SVGElement.read(contentsOf: out)
        let plot = try #require(Plot(svg))
        let clusters = try Self.clusters(in: svg)
        #expect(clusters.map(\.count) == [12, 1])
        let place = try #require(clusters.first)
        let (x, y) = plot.point(longitude: -4.5, latitude: 41)
        #expect(abs(place.x - x) < 0.01 && abs(place.y - y) < 0.01)
        #expect(place.label == "12")
        #expect(place.title.hasPrefix("12 photos near 41.0°N 4.5°W: "))
        #expect(place.title.hasSuffix("; and 10 more"))
        #expect(clusters.last?.label == nil, "a single photo has no count beside it")
    }

    @Test func mapOfAnEmptyStoreStillDrawsTheLandAndTheLegend() async throws {
        let sandbox = try ExampleSandbox.flickr()
        defer { sandbox.directory.remove() }
        let out = sandbox.directory.file("empty.svg")

        let run = try await sandbox.run(["map", "--out", out.path])
        #expect(run.status == 0, "\(run)")
        #expect(run.output.contains("wrote a map of 0 photos at 0 places"), "\(run)")
        let svg = try SVGElement.read(contentsOf: out)
        #expect(svg.all("text").map(\.text).contains("Recent geo-referenced Flickr photos: 0 photos"))
        #expect(svg.element(id: "photos")?.children.isEmpty == true)
        try Self.expectLand(in: svg, plot: try #require(Plot(svg)))
        try Self.expectLegend(in: svg)
    }

    // MARK: Land

    /// The land group holds the simplified Natural Earth outline: many paths, all inside the
    /// plot, covering land and leaving the sea (and the Caspian, a hole) uncovered.
    static func expectLand(in svg: SVGElement, plot: Plot) throws {
        let land = try #require(svg.element(id: "land"))
        let paths = land.all("path")
        #expect(paths.count > 100)
        let polygons = paths.compactMap(\.pathRings)
        #expect(polygons.count == paths.count, "every path is made of M, L and Z with absolute points")
        let points = polygons.joined().joined()
        #expect(points.count > 1000 && points.count < 2500, "\(points.count) points")
        #expect(points.allSatisfy { plot.contains(x: $0.x, y: $0.y) })
        #expect(land.attributes["fill-rule"] == "evenodd")

        func onLand(_ longitude: Double, _ latitude: Double) -> Bool {
            let (x, y) = plot.point(longitude: longitude, latitude: latitude)
            return polygons.contains { rings in rings.filter { contains($0, x: x, y: y) }.count % 2 == 1 }
        }
        let landPlaces = [
            ("Central Africa", 20.0, 0.0), ("Greenland", -40, 72), ("Australia", 134, -25), ("Brazil", -50, -10),
            ("Siberia", 100, 65), ("Antarctica", 0, -85), ("Madagascar", 46.5, -19), ("Great Britain", -2, 53),
        ]
        for (name, longitude, latitude) in landPlaces {
            #expect(onLand(longitude, latitude), "\(name) is on land")
        }
        let seaPlaces = [
            ("Atlantic", -30.0, 0.0), ("Pacific", -140, 0), ("Indian Ocean", 80, -20), ("Caspian Sea", 51, 42),
            ("Mediterranean", 18, 35), ("Hudson Bay", -85, 60),
        ]
        for (name, longitude, latitude) in seaPlaces {
            #expect(!onLand(longitude, latitude), "\(name) is not land")
        }
    }

    /// Whether a ring (closed implicitly) holds a point: a ray to the right crosses it an odd
    /// number of times.
    static func contains(_ ring: [(x: Double, y: Double)], x: Double, y: Double) -> Bool {
        var inside = false
        for (index, a) in ring.enumerated() {
            let b = ring[(index + 1) % ring.count]
            if (a.y > y) != (b.y > y), x < a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
        }
        return inside
    }

    // MARK: Legend

    /// The legend: circles for 1, 10 and 50 photos sized as on the map, a land swatch in the
    /// land's colour, and the land data's source.
    static func expectLegend(in svg: SVGElement) throws {
        let legend = try #require(svg.element(id: "legend"))
        let texts = legend.all("text").map(\.text)
        for label in ["1 photo", "10 photos", "50 photos", "Land", "Sea"] {
            #expect(texts.contains(label), "\(label)")
        }
        #expect(texts.contains("Land: Natural Earth 1:110m (naturalearthdata.com), public domain"))
        let radii = legend.all("circle").compactMap { $0.number("r") }
        #expect(radii.count == 3)
        for (radius, count) in zip(radii, [1, 10, 50]) {
            #expect(abs(radius - Self.radius(photos: count)) < 0.01, "the circle for \(count)")
        }
        let landFill = try #require(svg.element(id: "land")?.attributes["fill"])
        #expect(legend.all("rect").contains { $0.attributes["fill"] == landFill })
    }

    // MARK: Photos

    /// A circle of the map: one place's photos.
    struct Cluster: CustomStringConvertible {
        /// The circle's centre, in pixels from the left.
        var x: Double
        /// The circle's centre, in pixels from the top.
        var y: Double
        /// The circle's radius in pixels.
        var radius: Double
        /// The number written beside the circle, if any.
        var label: String?
        /// The circle's tooltip.
        var title: String
        /// How many photos the circle stands for: its label, 1 without one.
        var count: Int
        /// The cluster, for a failed expectation's message.
        var description: String { "\(count) at (\(x), \(y)) r \(radius): \(title)" }
    }

    /// The plot's frame (the sea's rectangle) and its equirectangular projection.
    struct Plot {
        /// The frame's left edge, top edge, width and height in pixels.
        var left, top, width, height: Double

        /// The frame of a map, from its `<rect id="sea">`; nil when missing.
        init?(_ svg: SVGElement) {
            guard let sea = svg.element(id: "sea"), let left = sea.number("x"), let top = sea.number("y"),
                let width = sea.number("width"), let height = sea.number("height")
            else { return nil }
            (self.left, self.top, self.width, self.height) = (left, top, width, height)
        }

        /// Where a place lies on the plot, in pixels.
        func point(longitude: Double, latitude: Double) -> (x: Double, y: Double) {
            (left + (longitude + 180) / 360 * width, top + (90 - latitude) / 180 * height)
        }

        /// Whether a point lies in the frame or on its edge.
        func contains(x: Double, y: Double) -> Bool {
            (left - 0.01...left + width + 0.01).contains(x) && (top - 0.01...top + height + 0.01).contains(y)
        }
    }

    /// The circles of the photos group, in drawing order, each with its count.
    static func clusters(in svg: SVGElement) throws -> [Cluster] {
        let photos = try #require(svg.element(id: "photos"))
        return try photos.children.map { group in
            #expect(group.name == "g")
            let circle = try #require(group.children.first { $0.name == "circle" })
            let label = group.children.first { $0.name == "text" }?.text
            let count = try label.map { try #require(Int($0), "a count: \($0)") } ?? 1
            return Cluster(
                x: try #require(circle.number("cx")), y: try #require(circle.number("cy")),
                radius: try #require(circle.number("r")), label: label,
                title: circle.all("title").first?.text ?? "", count: count)
        }
    }

    /// A stored photo at a place and its photographer, as another program sharing the store would write them,
    /// uploaded `age` minutes before the others (the store lists the newest first).
    static func photo(
        _ id: String, title: String, owner: String, latitude: Double, longitude: Double, placeID: String? = nil,
        age: Int = 0
    ) -> (Photo, Photographer) {
        let now = Date()
        let photo = Photo(
            id: id, title: title, ownerID: "\(owner)@N00", latitude: latitude, longitude: longitude,
            accuracy: nil, placeID: placeID, details: "", imageURL: nil,
            uploaded: Date(timeIntervalSince1970: 1_700_000_000 - 60 * Double(age)), firstFetched: now,
            lastFetched: now)
        return (photo, Photographer(id: "\(owner)@N00", name: owner))
    }
}
