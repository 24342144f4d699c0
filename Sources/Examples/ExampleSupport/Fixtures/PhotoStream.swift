public import Foundation
import SeededRandom

/// The offline Flickr photo stream: recent geo-referenced photos shaped like
/// `flickr.photos.search` with `has_geo=1&extras=geo,owner_name,description`
/// (shapes from the real responses in `Tests/Support/TestSupport/Fixtures/flickr/`: `pages` and
/// `total` as strings, coordinates as numbers in some photos and strings in others,
/// `description` as `{"_content": …}`, `dateupload` as a string of seconds since 1970). One
/// photo in 20 has no usable location: Flickr's `0`/`0` with accuracy `0`, or no coordinates.
///
/// The stream is generated deterministically. "Recent" is a window that moves forward with a
/// tick: each tick adds `photosPerTick` new photos at the front, so two fetches a tick apart
/// overlap, and fetches within one tick return the same photos. The photos are plausible:
/// taken in one of 12 cities, on land within a few kilometres of its centre, titled with a
/// subject found there (a harbour only where there is one, snow only where it falls), mostly
/// by photographers who live there, and uploaded no later than the tick's moment.
public struct PhotoStream: Sendable {
    /// How many new photos each tick brings.
    public let photosPerTick: Int

    /// A city photos are taken in.
    private struct Place {
        /// The name, as titles and descriptions give it.
        let name: String
        /// The centre's latitude.
        let latitude: Double
        /// The centre's longitude.
        let longitude: Double
        /// Flickr's place id of the city.
        let placeID: String
        /// The Where On Earth id of the city.
        let woeid: Int
        /// The offsets from the centre, in degrees, within which photos are taken: a box that
        /// keeps them on land in coastal cities.
        let latitudeOffsets: ClosedRange<Double>
        /// The longitude offsets of that box.
        let longitudeOffsets: ClosedRange<Double>
        /// What photos there show.
        let subjects: [String]

        /// A place from a row of ``places``.
        init(
            _ name: String, _ latitude: Double, _ longitude: Double, _ placeID: String, _ woeid: Int,
            _ latitudeOffsets: ClosedRange<Double>, _ longitudeOffsets: ClosedRange<Double>, _ subjects: [String]
        ) {
            (self.name, self.latitude, self.longitude, self.placeID, self.woeid) =
                (name, latitude, longitude, placeID, woeid)
            (self.latitudeOffsets, self.longitudeOffsets, self.subjects) = (latitudeOffsets, longitudeOffsets, subjects)
        }
    }

    /// The cities, one a row: the name, the centre's latitude and longitude, Flickr's place id,
    /// the Where On Earth id, the latitude and longitude offsets photos are taken within, and
    /// what photos there show.
    private static let places: [Place] = [
        Place(
            "San Francisco", 37.7749, -122.4194, "7.MJR8tTVrIO1EgB", 2_487_956, -0.05...0.025, -0.05...0.025,
            [
                "Golden Gate Bridge in the fog", "Cable car on Powell Street", "Painted Ladies at Alamo Square",
                "Fog over Twin Peaks", "Ferry Building at dusk", "Mural in the Mission", "Sunday in Dolores Park",
            ]),
        Place(
            "Oslo", 59.9139, 10.7522, "rXYsMN5TUb4a1fCr", 862_592, 0.005...0.05, -0.05...0.05,
            [
                "Opera House roof", "Tram on Karl Johans gate", "Vigeland sculptures", "Snow in Frogner Park",
                "Akerselva in autumn", "Midsummer evening", "Street in Grünerløkka",
            ]),
        Place(
            "Tokyo", 35.6762, 139.6503, "4Tk6b2JVUrtzrk4", 1_118_370, -0.05...0.05, -0.05...0.05,
            [
                "Shibuya crossing at night", "Cherry blossoms in Yoyogi Park", "Rain in Shinjuku", "Meiji Shrine gate",
                "Side street in Shimokitazawa", "Ramen counter", "Odakyu train at dusk",
            ]),
        Place(
            "Cape Town", -33.9249, 18.4241, "fZ0jLhZQU7qjhC8", 1_591_691, -0.05...(-0.005), -0.03...0.05,
            [
                "Table Mountain from the city", "Bo-Kaap colours", "Lion's Head at sunset", "Company's Garden",
                "Harbour at dusk", "Cloth on Table Mountain", "Jacarandas in Gardens",
            ]),
        Place(
            "Buenos Aires", -34.6037, -58.3816, "4qNuW3ZUVrIZbA", 468_739, -0.05...0.02, -0.05...0.015,
            [
                "La Boca colours", "Tango in San Telmo", "Obelisco at night", "Recoleta Cemetery",
                "Puente de la Mujer", "Jacarandas in Palermo", "Café on Avenida de Mayo",
            ]),
        Place(
            "Reykjavík", 64.1466, -21.9426, "zo8kVWBTUb5YbQ", 980_389, -0.025...0, 0...0.06,
            [
                "Hallgrímskirkja", "Harpa at night", "Northern lights over the bay", "Sun Voyager sculpture",
                "Colourful roofs", "Old harbour at dusk", "Snow on Laugavegur",
            ]),
        Place(
            "Sydney", -33.8688, 151.2093, "8vXXR3NWUrJxmQ", 1_105_779, -0.05...(-0.01), -0.05...0.03,
            [
                "Opera House at dusk", "Harbour Bridge from the Rocks", "Ferries at Circular Quay",
                "Royal Botanic Garden", "Terraces in Surry Hills", "Jacarandas in Paddington", "Central Station clock",
            ]),
        Place(
            "Nairobi", -1.2921, 36.8219, "Vp5Vh9dTUb5LlQ", 1_528_488, -0.05...0.05, -0.05...0.05,
            [
                "Uhuru Park", "Matatus on Moi Avenue", "City Market", "Skyline at dusk", "Jacaranda season",
                "Karura Forest trail", "Kenyatta Avenue at rush hour",
            ]),
        Place(
            "Mumbai", 19.0760, 72.8777, "tI9yS7FVUb5tPQ", 2_295_411, -0.03...0.05, -0.03...0.04,
            [
                "Monsoon rain", "Local train at rush hour", "Street food stall", "Ganesh Chaturthi procession",
                "Rooftops at dusk", "Chai stall in Kurla", "Workshops in Dharavi",
            ]),
        Place(
            "Anchorage", 61.2181, -149.9003, "j9r2UtZWUb4bZA", 2_354_490, -0.05...0, 0...0.06,
            [
                "Chugach Mountains from Midtown", "Snow on Town Square", "Moose in the neighbourhood",
                "Northern lights", "Cook Inlet at low tide", "Coastal Trail in autumn", "Float planes at Lake Hood",
            ]),
        Place(
            "Lima", -12.0464, -77.0428, "GOFz6edVUrLoEg", 418_440, -0.04...0.03, -0.01...0.05,
            [
                "Plaza Mayor", "Lima Cathedral", "Garúa over the city", "Fountains in Parque de la Reserva",
                "Ceviche lunch", "Barrio Chino gate", "Balconies in the old town",
            ]),
        Place(
            "Alameda", 37.765819, -122.242912, "FmOEZR5UV7P7KfBdxg", 2_352_491, -0.008...0.006, -0.03...0.01,
            [
                "Victorian on Central Avenue", "Park Street at night", "Sunset over the estuary",
                "Alameda Theatre marquee", "Bikes on Shoreline Drive", "Lincoln Park oaks",
            ]),
    ]
    /// The photographers: id, name, and the city they live in (an index into ``places``).
    private static let owners: [(id: String, name: String, home: Int)] = [
        ("85853333@N00", "Jeremy Brooks", 0), ("7523361@N03", "Sigrid Holm", 1), ("44124412@N05", "Kenji Mori", 2),
        ("91117302@N02", "Thandi Nkosi", 3), ("30103984@N07", "Mateo Ruiz", 4),
        ("52418930@N04", "Guðrún Jónsdóttir", 5),
        ("61920384@N06", "Liam O'Connor", 6), ("38291047@N08", "Wanjiru Kamau", 7),
        ("73820194@N02", "Priya Deshmukh", 8), ("29104857@N05", "Dana Whitfield", 9),
        ("12037949754@N01", "Ana Lima", 10), ("84736251@N00", "Marcus Chen", 11),
    ]

    /// Creates the stream.
    ///
    /// - Parameter photosPerTick: how many new photos each tick brings (default 25).
    public init(photosPerTick: Int = 25) {
        self.photosPerTick = photosPerTick
    }

    /// The photo with sequence number `n` (0 is the oldest), as the API sends it.
    public func photo(_ n: Int) -> [String: Any] {
        var g = SeededGenerator(seed: 0xF11C_4000 &+ UInt64(n))
        let placeIndex = Int.random(in: 0..<Self.places.count, using: &g)
        let place = Self.places[placeIndex]
        // Most photos are by someone who lives there; the rest by a visitor.
        let locals = Self.owners.filter { $0.home == placeIndex }
        let owner = g.chance(0.8) && !locals.isEmpty ? g.pick(locals) : g.pick(Self.owners)
        let latitude = (place.latitude + Double.random(in: place.latitudeOffsets, using: &g)) * 1e6
        let longitude = (place.longitude + Double.random(in: place.longitudeOffsets, using: &g)) * 1e6
        let (latValue, lonValue) = (latitude.rounded() / 1e6, longitude.rounded() / 1e6)
        let id = 10_586_602_103 + n * 17
        let asStrings = n % 3 == 0  // some responses carry coordinates as strings
        // Some titles are the camera's file name, as on Flickr.
        let title =
            g.chance(0.08)
            ? "\(g.pick(["IMG_", "DSC_", "DSCF"]))\(String(format: "%04d", Int.random(in: 1...9999, using: &g)))"
            : "\(g.pick(place.subjects)), \(place.name)"
        var photo: [String: Any] = [
            "id": "\(id)", "owner": owner.id, "secret": String(format: "%010x", g.next() & 0xFF_FFFF_FFFF),
            "server": "\(3000 + n % 900)", "farm": 4 + n % 3, "title": title,
            "ispublic": 1, "isfriend": 0, "isfamily": 0,
            "description": ["_content": n % 4 == 0 ? "" : "Taken in \(place.name)."], "ownername": owner.name,
            "dateupload": "\(Self.uploadTime(ofPhoto: n))",
            "latitude": asStrings ? "\(latValue)" as Any : latValue as Any,
            "longitude": asStrings ? "\(lonValue)" as Any : lonValue as Any,
            "accuracy": 16, "context": 0, "place_id": place.placeID, "woeid": "\(place.woeid)",
            "geo_is_public": 1,
        ]
        // A few photos come without a usable location, as real responses sometimes do:
        // Flickr's 0/0 with accuracy 0 (location hidden), or no coordinates at all.
        switch n % 40 {
        case 17: (photo["latitude"], photo["longitude"], photo["accuracy"]) = (0, 0, 0)
        case 37: (photo["latitude"], photo["longitude"], photo["accuracy"]) = (nil, nil, nil)
        default: break
        }
        return photo
    }

    /// How much wall-clock time one tick stands for, when the tick follows the clock
    /// (see ``tick(at:)``).
    public static let tickLength: Duration = .seconds(10)

    /// ``tickLength`` in whole seconds.
    private static var tickSeconds: Int { Int(tickLength.components.seconds) }

    /// The start of the stream's clock: 2026-01-01T00:00:00Z, in seconds since 1970.
    static let origin = 1_767_225_600

    /// The tick of the stream at a moment of wall-clock time: one tick every ``tickLength``
    /// since 2026-01-01T00:00:00Z (0 before then), so a program that fetches every
    /// minute sees new photos each time.
    ///
    /// - Parameter date: the moment.
    /// - Returns: the tick, at least 0.
    public static func tick(at date: Date) -> Int {
        let seconds = date.timeIntervalSince1970 - TimeInterval(origin)
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int(min(seconds / Double(tickSeconds), 1e12))
    }

    /// The upload time of photo `n`, in seconds since 1970: the newest photo of ``tick(at:)``'s
    /// tick was uploaded about then.
    static func uploadTime(ofPhoto n: Int) -> Int {
        origin + (n - 400) * tickSeconds / 25
    }

    /// The JSON body of one page of recent photos as of `tick`: the newest photo first.
    ///
    /// - Parameters:
    ///   - tick: how far the stream has moved (for example minutes since some start).
    ///   - page: the one-based page.
    ///   - perPage: photos per page (Flickr's default is 100, its maximum 500).
    /// - Returns: the response body, `{"photos": {…}, "stat": "ok"}`.
    public func recentResponse(tick: Int, page: Int, perPage: Int) -> Data {
        let newest = 400 + max(0, tick) * photosPerTick
        let total = newest
        let size = min(max(1, perPage), 500)
        let pages = (total + size - 1) / size
        let start = (max(1, page) - 1) * size
        let photos = stride(from: newest - 1 - start, to: max(-1, newest - 1 - start - size), by: -1).map(photo)
        let body: [String: Any] = [
            "photos": [
                "page": max(1, page), "pages": "\(pages)", "perpage": size, "total": "\(total)", "photo": photos,
            ],
            "stat": "ok",
        ]
        return (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
    }

    /// Flickr's answer to a bad key: HTTP 200 with `stat` `fail`.
    public static let invalidKeyBody = Data(
        #"{"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}"#.utf8)
}
