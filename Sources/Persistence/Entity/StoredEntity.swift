/// A value type the store keeps in its own table: adopt it on your `Codable` structs.
///
/// The store derives one column per stored property from the type's `Codable`
/// conformance (the compiler's synthesized one or your own), typed by each property's declared
/// Swift type. Integers, `Bool`, floating-point numbers, `String`, `Data`, `Date`, `UUID`,
/// `URL`, `Decimal` and any `RawRepresentable` type with such a raw value get a column of
/// their own type; any other `Codable` value (a nested struct, an array, a dictionary, an enum
/// with associated values) is stored as JSON text. Optional properties become nullable columns.
/// Every value comes back bit for bit, or the write fails naming the property (NaN, for one, is
/// refused); see "How values are stored" in the queries article.
///
/// For example:
///
/// ```swift
/// struct Book: StoredEntity {
///     var id: String          // the ISBN
///     var title: String
///     var authors: [String]   // stored as JSON text
///     var rating: Double?
///
///     static let title = Field<Book, String>("title")
///     static let rating = Field<Book, Double?>("rating")
///     static let indexes = [EntityIndex(title, caseInsensitive: true)]
/// }
/// ```
///
/// Values are plain `Sendable` structs: they cross threads freely, and there is no
/// managed object to touch on the wrong thread.
///
/// A custom `init(from:)` or `encode(to:)` reads or writes its row inside the call; keep neither
/// the `Decoder`/`Encoder` nor a container. One kept and used after its fetch returned (or after
/// its row was written) throws ``PersistenceError/Code-swift.struct/misuse`` naming the entity
/// and the property: it never reads a later fetch's rows, never writes into another row's
/// statement, never reaches freed memory. (The rows of one fetch share one decoding container.)
public protocol StoredEntity: Codable, Sendable, Identifiable where ID: QueryableValue & Codable {
    /// The table's name; by default the type's name.
    static var entityName: String { get }
    /// The property holding the identity; by default `id`.
    static var idField: Field<Self, ID> { get }
    /// Unique keys besides the identity; by default none.
    static var uniqueKeys: [UniqueKey<Self>] { get }
    /// Indexes that speed up filters and sorts; by default none.
    static var indexes: [EntityIndex<Self>] { get }
    /// Defaults for non-optional properties added after rows were stored; by default none.
    ///
    /// A property listed here can be added to an existing store without a ``Migration``:
    /// existing rows get the default.
    static var columnDefaults: [ColumnDefault<Self>] { get }
    /// The full-text index over text properties, searched with ``Field/matches(_:)``; by
    /// default none.
    static var fullTextIndex: FullTextIndex<Self>? { get }
    /// The relations the entity declares: its ``ToOne`` references and ``ManyToMany`` relations;
    /// by default none. (A ``ToMany`` relation is read through its inverse and is not listed.)
    static var relations: [any Relation<Self>] { get }
}

extension StoredEntity {
    /// The type's name, such as `"Book"`.
    public static var entityName: String { String(describing: Self.self) }
    /// The `id` property.
    public static var idField: Field<Self, ID> { Field("id") }
    /// No unique keys besides the identity.
    public static var uniqueKeys: [UniqueKey<Self>] { [] }
    /// The default: no indexes besides those of the identity and the unique keys.
    public static var indexes: [EntityIndex<Self>] { [] }
    /// No defaults.
    public static var columnDefaults: [ColumnDefault<Self>] { [] }
    /// No full-text index.
    public static var fullTextIndex: FullTextIndex<Self>? { nil }
    /// No relations.
    public static var relations: [any Relation<Self>] { [] }
}
