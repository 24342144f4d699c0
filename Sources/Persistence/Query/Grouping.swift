/// How the store groups rows by a ``GroupingKey`` and reads each group's value of it.
public struct Grouping<Value: Sendable>: Sendable {
    /// The entity whose rows the key groups.
    let entity: ObjectIdentifier
    let entityName: String
    let key: GroupKey
    /// Prepares the reading of this key's values: given the SQL that selects them over the groups,
    /// returns what reads one group's value (the reader at this key's column).
    let prepare:
        @Sendable (ObjectTransaction, QuerySQL) throws(PersistenceError) -> (
            @Sendable (AggregateReader) throws(PersistenceError) -> Value
        )
}
