/// A count of related rows, compared with a number to make a filter (it is a
/// ``QueryExpression``): `Author.books.count >= 3`, `Author.books.count(where: Book.rating > 4) == 0`.
public struct RelatedCount<Source: StoredEntity>: Sendable {
    let make: @Sendable (_ op: String, _ value: Int) -> Filter<Source>
}
