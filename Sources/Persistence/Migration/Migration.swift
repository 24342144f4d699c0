/// A named, explicit schema change, run once per store file, in its own transaction.
///
/// The store adds tables for new entities and columns for new `Optional` (or defaulted)
/// properties on its own. Anything else, such as a new non-optional property without a
/// default, a changed property type or a removed unique key, stops the open with
/// ``PersistenceError/Code-swift.struct/incompatibleSchema`` until a migration makes the table match:
///
/// ```swift
/// config.migrations = [
///     Migration("add-year-to-books") { tx in
///         try tx.execute(#"ALTER TABLE "Book" ADD COLUMN "year" INTEGER NOT NULL DEFAULT 1900"#)
///     }
/// ]
/// ```
///
/// Migrations run in list order when the store opens, before the store compares entities with
/// tables; each runs in its own transaction and is recorded in the file (table
/// `fk_migrations`), so it runs exactly once. On a brand-new file the tables are created from
/// the current entities, so every listed migration is recorded as applied without running.
/// Inside a migration use raw SQL (``ObjectTransaction/execute(_:_:)``): the entities describe
/// the schema *after* the migration.
public struct Migration: Sendable {
    /// The migration's unique name, recorded in the file once it has run.
    public let name: String
    let body: @Sendable (ObjectTransaction) throws -> Void

    /// Creates a migration.
    ///
    /// - Parameters:
    ///   - name: a unique, stable name, such as `"2024-05-add-year-to-books"`.
    ///   - body: the work, run inside one write transaction; throwing rolls it back and stops the
    ///     open with ``PersistenceError/Code-swift.struct/migrationFailed``.
    public init(_ name: String, _ body: @escaping @Sendable (ObjectTransaction) throws -> Void) {
        self.name = name
        self.body = body
    }
}
