public import Foundation
public import Persistence
import Sync

/// The shape of the `flickr` example's store: its entities and the migration that brings a store
/// of photos with photographers and places as text up to them.
public enum PhotoStore {
    /// The entities of the store: the photos with their photographers and places, and the
    /// bookkeeping of the mirror that keeps them (`SyncSchema`).
    public static let entities: [any StoredEntity.Type] =
        [Photographer.self, Place.self, Photo.self] + SyncSchema.entities

    /// Makes ``Photographer`` and ``Place`` rows of a store whose photos keep their owner's name and
    /// their place id as text.
    ///
    /// Each photographer takes the name of their most recently fetched photo (ties: the photo
    /// stored last); each distinct place id becomes a place without a Where On Earth id (the
    /// photos did not keep one), an empty place id none. The photos' `ownerID` and `placeID`
    /// columns stay and become the references; the name column goes, with its index and folded
    /// copy. The store then adds the foreign keys and their indexes, drops the place id's old
    /// index, and checks every photo against the keys.
    public static let entitiesMigration = Migration("flickr-photographers-and-places") { tx in
        try tx.execute(#"CREATE TABLE "Photographer" ("id" TEXT NOT NULL PRIMARY KEY, "name" TEXT NOT NULL)"#)
        try tx.execute(
            #"""
            INSERT INTO "Photographer" ("id", "name")
            SELECT "ownerID", "ownerName" FROM (
                SELECT "ownerID", "ownerName",
                       row_number() OVER (PARTITION BY "ownerID" ORDER BY "lastFetched" DESC, rowid DESC) AS "latest"
                FROM "Photo" WHERE "ownerID" IS NOT NULL)
            WHERE "latest" = 1
            """#)
        try tx.execute(#"CREATE TABLE "Place" ("id" TEXT NOT NULL PRIMARY KEY, "woeid" INTEGER)"#)
        try tx.execute(#"UPDATE "Photo" SET "placeID" = NULL WHERE "placeID" = ''"#)
        try tx.execute(
            #"INSERT INTO "Place" ("id") SELECT DISTINCT "placeID" FROM "Photo" WHERE "placeID" IS NOT NULL"#)
        // The name is the photographer's now: the column goes with its index and folded copy.
        try tx.dropProperty("ownerName", from: Photo.self)
    }

    /// Opens (or creates) the store at `url`, migrating a store of an earlier shape.
    ///
    /// - Parameter url: the store file.
    /// - Returns: the open store.
    /// - Throws: `PersistenceError` when the file cannot be opened or migrated (it is then left untouched).
    public static func open(at url: URL) throws -> ObjectStore {
        try ObjectStore(at: url, entities: entities) { configuration in
            configuration.migrations = [entitiesMigration]
        }
    }
}
