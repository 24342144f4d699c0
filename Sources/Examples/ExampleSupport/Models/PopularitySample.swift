public import Foundation
public import Persistence

/// One point of a movie's popularity history in the `mustc` example: the value TMDB gave
/// when the movie was matched, and again after every refresh that changed it.
///
/// The history is bounded: a movie keeps its latest ``maximumPerMovie`` samples, and a
/// removed movie's samples go with it.
public struct PopularitySample: StoredEntity {
    /// The sample's identity.
    public var id: UUID
    /// The ``Movie`` it belongs to.
    public var movieID: UUID
    /// When the value was fetched (every sample of one refresh has the refresh's time).
    public var takenAt: Date
    /// TMDB's popularity then.
    public var popularity: Double
    /// The value it replaced, if the movie had one (the trend of a refresh compares the two).
    public var previous: Double?

    /// The movie column.
    public static let movieID = Field<PopularitySample, UUID>("movieID")
    /// The time column.
    public static let takenAt = Field<PopularitySample, Date>("takenAt")
    /// Samples are read per movie, in time order.
    /// The movie a sample belongs to: deleting the movie deletes its samples (the store's
    /// cascade rule, which holds for raw SQL too). The store indexes the reference.
    public static let movie = ToOne<PopularitySample, Movie>(movieID, onDelete: .cascade)
    /// The relations: ``movie``.
    public static let relations: [any Relation<PopularitySample>] = [movie]
    /// The indexes: by time (the reference is indexed as a relation).
    public static let indexes = [EntityIndex(takenAt)]

    /// How many samples a movie keeps; older ones are pruned as new ones come.
    public static let maximumPerMovie = 60

    /// Creates a sample.
    ///
    /// - Parameters:
    ///   - movieID: the movie's id.
    ///   - takenAt: when the value was fetched.
    ///   - popularity: the value.
    ///   - previous: the value it replaced, if any.
    public init(movieID: UUID, takenAt: Date, popularity: Double, previous: Double? = nil) {
        id = UUID()
        self.movieID = movieID
        self.takenAt = takenAt
        self.popularity = popularity
        self.previous = previous
    }
}
