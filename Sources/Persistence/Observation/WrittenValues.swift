/// The new values an update by filter wrote, row by row, read back by the statement itself
/// (`UPDATE … RETURNING`), so observers can apply the update to the rows they hold instead of
/// reading the rows again.
///
/// Each row's values are absolute (the row's values after the statement), not relative (`+ 1`):
/// an observer that applies them to a row it read later than the statement still ends at the
/// right values, because every later change to the row is applied after them.
struct WrittenValues: Sendable {
    /// Past this many rows in one update, or pending for one observer, the values are not kept
    /// and observers read the table again: this bounds the memory the values take.
    static let limit = 1_000_000

    /// The assigned columns, by property name.
    let columns: [String]
    /// The changed rows' row ids.
    let rowids: [Int64]
    /// The new values: `columns.count` per row, in the order of ``rowids``.
    let values: [DatabaseValue]
}
