import FetchKit
import Foundation

/// The Flickr REST calls the program makes, as FetchKit endpoints. The API key is not here:
/// an `APIKeyAdapter` on the client adds it to every request.
enum FlickrEndpoint: Endpoint {
    /// `flickr.photos.search` for recent photos that have a location, newest first, with the
    /// extras the store keeps: page `page` (from 1) of `perPage` photos.
    case recentGeoreferencedPhotos(service: URL, perPage: Int, page: Int)

    /// The live REST endpoint.
    static let liveService = URL(string: "https://api.flickr.com/services/rest/")

    var baseURL: URL {
        switch self {
        case .recentGeoreferencedPhotos(let service, _, _): service
        }
    }

    /// `/`: the service URL ends in `/services/rest/`, and FetchKit drops a base URL's
    /// trailing slash before appending the path.
    var path: String { "/" }

    var queryItems: [URLQueryItem] {
        switch self {
        case .recentGeoreferencedPhotos(_, let perPage, let page):
            [
                URLQueryItem(name: "method", value: "flickr.photos.search"),
                URLQueryItem(name: "has_geo", value: "1"),
                URLQueryItem(name: "extras", value: "description,date_upload,geo,owner_name"),
                URLQueryItem(name: "sort", value: "date-posted-desc"),
                URLQueryItem(name: "per_page", value: String(perPage)),
                URLQueryItem(name: "page", value: String(page)),
                URLQueryItem(name: "format", value: "json"),
                URLQueryItem(name: "nojsoncallback", value: "1"),
            ]
        }
    }
}
