public import Foundation

/// The offline Flickr photo stream: recent geo-referenced photos shaped like
/// `flickr.photos.search` with `has_geo=1&extras=geo,owner_name,description`
/// (shapes from the real responses in `Sources/TestSupport/Fixtures/flickr/`: `pages` and
/// `total` as strings, coordinates as numbers in some photos and strings in others,
/// `description` as `{"_content": …}`, `dateupload` as a string of seconds since 1970). One
/// photo in 20 has no usable location: Flickr's `0`/`0` with accuracy `0`, or no coordinates.
///
/// The stream is generated deterministically. "Recent" is a window that moves forward with a
/// tick: each tick adds `photosPerTick` new photos at the front, so two fetches a tick apart
/// overlap, and fetches within one tick return the same photos.
public struct PhotoStream: Sendable {
    /// How many new photos each tick brings.
    public let photosPerTick: Int

    private static let places: [(String, Double, Double, String)] = [
        ("San Francisco", 37.7749, -122.4194, "7.MJR8tTVrIO1EgB"), ("Oslo", 59.9139, 10.7522, "rXYsMN5TUb4a1fCr"),
        ("Tokyo", 35.6762, 139.6503, "4Tk6b2JVUrtzrk4"), ("Cape Town", -33.9249, 18.4241, "fZ0jLhZQU7qjhC8"),
        ("Buenos Aires", -34.6037, -58.3816, "4qNuW3ZUVrIZbA"), ("Reykjavík", 64.1466, -21.9426, "zo8kVWBTUb5YbQ"),
        ("Sydney", -33.8688, 151.2093, "8vXXR3NWUrJxmQ"), ("Nairobi", -1.2921, 36.8219, "Vp5Vh9dTUb5LlQ"),
        ("Mumbai", 19.0760, 72.8777, "tI9yS7FVUb5tPQ"), ("Anchorage", 61.2181, -149.9003, "j9r2UtZWUb4bZA"),
        ("Lima", -12.0464, -77.0428, "GOFz6edVUrLoEg"), ("Alameda", 37.765819, -122.242912, "FmOEZR5UV7P7KfBdxg"),
    ]
    private static let owners = [
        ("85853333@N00", "Jeremy Brooks"), ("12037949754@N01", "Ana Lima"), ("44124412@N05", "Kenji Mori"),
        ("7523361@N03", "Sigrid Holm"), ("91117302@N02", "Thandi Nkosi"), ("30103984@N07", "Mateo Ruiz"),
    ]
    /// What people photograph in each place, by the place's name.
    static let subjects: [String: [String]] = [
        "San Francisco": ["Golden Gate in fog", "Cable car", "Painted Ladies", "Fog over the bay", "Chinatown"],
        "Oslo": ["Opera house roof", "Harbour at dusk", "Vigeland Park", "Tram on Karl Johans gate", "Fjord light"],
        "Tokyo": [
            "Shibuya crossing", "Cherry blossoms", "Senso-ji at night", "Ramen counter", "Skyline from Roppongi",
        ],
        "Cape Town": [
            "Table Mountain", "Bo-Kaap colours", "Harbour at dusk", "Penguins at Boulders", "Sunset at Camps Bay",
        ],
        "Buenos Aires": ["La Boca", "Tango in San Telmo", "Obelisco", "Jacarandas in bloom", "Café Tortoni"],
        "Reykjavík": ["Hallgrímskirkja", "Harpa at night", "Northern lights", "Old harbour", "Sun Voyager"],
        "Sydney": ["Opera House", "Harbour Bridge", "Bondi Beach", "Ferry to Manly", "The Rocks"],
        "Nairobi": ["Giraffe Centre", "Nairobi National Park", "City market", "Skyline at dusk", "Karura Forest"],
        "Mumbai": [
            "Gateway of India", "Marine Drive at night", "Chhatrapati Shivaji Terminus", "Dhobi Ghat", "Monsoon rain",
        ],
        "Anchorage": [
            "Chugach Mountains", "Moose in the snow", "Northern lights", "Tony Knowles Coastal Trail", "Float planes",
        ],
        "Lima": ["Miraflores cliffs", "Plaza Mayor", "Ceviche lunch", "Barranco murals", "Pacific at dusk"],
        "Alameda": [
            "Naval air station", "Crown Memorial Beach", "Victorian houses", "Ferry to San Francisco", "Park Street",
        ],
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
        let (place, lat, lon, placeID) = g.pick(Self.places)
        let (owner, ownerName) = g.pick(Self.owners)
        let latitude = (lat + Double.random(in: -0.05...0.05, using: &g)) * 1e6
        let longitude = (lon + Double.random(in: -0.05...0.05, using: &g)) * 1e6
        let (latValue, lonValue) = (latitude.rounded() / 1e6, longitude.rounded() / 1e6)
        let id = 10_586_602_103 + n * 17
        let asStrings = n % 3 == 0  // some responses carry coordinates as strings
        var photo: [String: Any] = [
            "id": "\(id)", "owner": owner, "secret": String(format: "%010x", g.next() & 0xFF_FFFF_FFFF),
            "server": "\(3000 + n % 900)", "farm": 4 + n % 3,
            "title": "\(g.pick(Self.subjects[place] ?? ["Street view"])), \(place)",
            "ispublic": 1, "isfriend": 0, "isfamily": 0,
            "description": ["_content": n % 4 == 0 ? "" : "Taken in \(place)."], "ownername": ownerName,
            "dateupload": "\(Self.uploadTime(ofPhoto: n))",
            "latitude": asStrings ? "\(latValue)" as Any : latValue as Any,
            "longitude": asStrings ? "\(lonValue)" as Any : lonValue as Any,
            "accuracy": 16, "context": 0, "place_id": placeID, "woeid": "\(2_000_000 + n % 5000)",
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
    public static let tickLength: TimeInterval = 10

    /// The start of the stream's clock: 2026-01-01T00:00:00Z, in seconds since 1970.
    static let origin = 1_767_225_600

    /// The tick of the stream at a moment of wall-clock time: one tick every ``tickLength``
    /// seconds since 2026-01-01T00:00:00Z (0 before then), so a program that fetches every
    /// minute sees new photos each time.
    ///
    /// - Parameter date: the moment.
    /// - Returns: the tick, at least 0.
    public static func tick(at date: Date) -> Int {
        let seconds = date.timeIntervalSince1970 - TimeInterval(origin)
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int(min(seconds / tickLength, 1e12))
    }

    /// The wall-clock time a tick stands for, in seconds since 1970: no photo of the stream at
    /// that tick was uploaded later.
    ///
    /// - Parameter tick: the tick.
    /// - Returns: 2026-01-01T00:00:00Z plus ``tickLength`` per tick.
    public static func time(ofTick tick: Int) -> Int {
        origin + max(0, tick) * Int(tickLength)
    }

    /// The upload time of photo `n`, in seconds since 1970: the newest photo of ``tick(at:)``'s
    /// tick was uploaded about then.
    static func uploadTime(ofPhoto n: Int) -> Int {
        origin + (n - 400) * Int(tickLength) / 25
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
