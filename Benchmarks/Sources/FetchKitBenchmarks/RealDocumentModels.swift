import Foundation

/// "Any JSON" as users write it: probe an object, then an array, then each scalar with `try?`.
/// Every probe that fails is a caught decoding error, the pattern issue 41 measured.
indirect enum AnyJSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            var values: [String: AnyJSON] = [:]
            for key in object.allKeys { values[key.stringValue] = try object.decode(AnyJSON.self, forKey: key) }
            self = .object(values)
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            var values: [AnyJSON] = []
            while !array.isAtEnd { values.append(try array.decode(AnyJSON.self)) }
            self = .array(values)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? single.decode(Double.self) {
            self = .double(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }
}

// MARK: - twitter.json: a search timeline

/// A page of a Twitter search: the timeline.
struct TwitterTimeline: Decodable, Equatable {
    var statuses: [TwitterStatus]
    var searchMetadata: TwitterSearchMetadata

    enum CodingKeys: String, CodingKey {
        case statuses
        case searchMetadata = "search_metadata"
    }
}

struct TwitterSearchMetadata: Decodable, Equatable {
    var completedIn: Double
    var maxID: Int64
    var query: String
    var count: Int
    var sinceID: Int64

    enum CodingKeys: String, CodingKey {
        case completedIn = "completed_in"
        case maxID = "max_id"
        case query, count
        case sinceID = "since_id"
    }
}

struct TwitterStatus: Decodable, Equatable {
    var id: Int64
    var idString: String
    var createdAt: String
    var text: String
    var source: String
    var truncated: Bool
    var inReplyToStatusID: Int64?
    var inReplyToScreenName: String?
    var user: TwitterUser
    var entities: TwitterEntities
    var retweetCount: Int
    var favoriteCount: Int
    var favorited: Bool
    var retweeted: Bool
    var lang: String

    enum CodingKeys: String, CodingKey {
        case id
        case idString = "id_str"
        case createdAt = "created_at"
        case text, source, truncated
        case inReplyToStatusID = "in_reply_to_status_id"
        case inReplyToScreenName = "in_reply_to_screen_name"
        case user, entities
        case retweetCount = "retweet_count"
        case favoriteCount = "favorite_count"
        case favorited, retweeted, lang
    }
}

struct TwitterUser: Decodable, Equatable {
    var id: Int64
    var name: String
    var screenName: String
    var location: String
    var description: String
    var url: String?
    var followersCount: Int
    var friendsCount: Int
    var listedCount: Int
    var favouritesCount: Int
    var statusesCount: Int
    var createdAt: String
    var utcOffset: Int?
    var timeZone: String?
    var verified: Bool
    var lang: String
    var profileImageURL: String

    enum CodingKeys: String, CodingKey {
        case id, name
        case screenName = "screen_name"
        case location, description, url
        case followersCount = "followers_count"
        case friendsCount = "friends_count"
        case listedCount = "listed_count"
        case favouritesCount = "favourites_count"
        case statusesCount = "statuses_count"
        case createdAt = "created_at"
        case utcOffset = "utc_offset"
        case timeZone = "time_zone"
        case verified, lang
        case profileImageURL = "profile_image_url_https"
    }
}

struct TwitterEntities: Decodable, Equatable {
    var hashtags: [TwitterHashtag]
    var urls: [TwitterURL]
    var userMentions: [TwitterMention]

    enum CodingKeys: String, CodingKey {
        case hashtags, urls
        case userMentions = "user_mentions"
    }
}

struct TwitterHashtag: Decodable, Equatable {
    var text: String
    var indices: [Int]
}

struct TwitterURL: Decodable, Equatable {
    var url: String
    var expandedURL: String
    var displayURL: String
    var indices: [Int]

    enum CodingKeys: String, CodingKey {
        case url
        case expandedURL = "expanded_url"
        case displayURL = "display_url"
        case indices
    }
}

struct TwitterMention: Decodable, Equatable {
    var screenName: String
    var name: String
    var id: Int64
    var indices: [Int]

    enum CodingKeys: String, CodingKey {
        case screenName = "screen_name"
        case name, id, indices
    }
}

// MARK: - citm_catalog.json: a catalogue keyed by ids

/// A ticketing catalogue: events keyed by their ids, performances, and name tables.
struct CITMCatalog: Decodable, Equatable {
    var areaNames: [String: String]
    var audienceSubCategoryNames: [String: String]
    var blockNames: [String: String]
    var events: [String: CITMEvent]
    var performances: [CITMPerformance]
    var seatCategoryNames: [String: String]
    var subTopicNames: [String: String]
    var subjectNames: [String: String]
    var topicNames: [String: String]
    var topicSubTopics: [String: [Int]]
    var venueNames: [String: String]
}

struct CITMEvent: Decodable, Equatable {
    var description: String?
    var id: Int
    var logo: String?
    var name: String
    var subTopicIds: [Int]
    var subjectCode: String?
    var subtitle: String?
    var topicIds: [Int]
}

struct CITMPerformance: Decodable, Equatable {
    var eventId: Int
    var id: Int
    var logo: String?
    var name: String?
    var prices: [CITMPrice]
    var seatCategories: [CITMSeatCategory]
    var seatMapImage: String?
    var start: Int
    var venueCode: String
}

struct CITMPrice: Decodable, Equatable {
    var amount: Int
    var audienceSubCategoryId: Int
    var seatCategoryId: Int
}

struct CITMSeatCategory: Decodable, Equatable {
    var areas: [CITMArea]
    var seatCategoryId: Int
}

struct CITMArea: Decodable, Equatable {
    var areaId: Int
    var blockIds: [Int]
}

// MARK: - github_events.json: events with free-form payloads

/// One event of GitHub's public events API: typed fields and a payload whose shape depends on
/// the event's type, decoded as ``AnyJSON``.
struct GitHubEvent: Decodable, Equatable {
    var id: String
    var type: String
    var actor: GitHubActor
    var repo: GitHubRepo
    var org: GitHubActor?
    var payload: AnyJSON
    var isPublic: Bool
    var createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, type, actor, repo, org, payload
        case isPublic = "public"
        case createdAt = "created_at"
    }
}

struct GitHubActor: Decodable, Equatable {
    var id: Int
    var login: String
    var gravatarID: String
    var url: String
    var avatarURL: String

    enum CodingKeys: String, CodingKey {
        case id, login
        case gravatarID = "gravatar_id"
        case url
        case avatarURL = "avatar_url"
    }
}

struct GitHubRepo: Decodable, Equatable {
    var id: Int
    var name: String
    var url: String
}

// MARK: - canada.json: a mesh of coordinates

/// A GeoJSON feature collection: Canada's borders as polygons of longitude-latitude pairs.
struct GeoFeatureCollection: Decodable, Equatable {
    var type: String
    var features: [GeoFeature]
}

struct GeoFeature: Decodable, Equatable {
    var type: String
    var properties: [String: String]
    var geometry: GeoPolygon
}

struct GeoPolygon: Decodable, Equatable {
    var type: String
    var coordinates: [[[Double]]]
}
