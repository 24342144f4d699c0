/// The rows of a query in sections: the rows that share a key, in the query's order. Make one with
/// ``Query/sectioned(by:)->SectionedQuery<Key,Entity>`` or ``IncludingQuery/sectioned(by:)->SectionedQuery<Key,Entity,Included>``.
public struct SectionedQuery<Key: Hashable & Sendable, Entity: StoredEntity, each Included: Sendable>: FetchRequest {
    /// The rows and what each brings.
    public var rows: IncludingQuery<Entity, repeat each Included>
    /// How each row's key is read.
    let key: SectionKey<Entity>

    /// Reads the rows and splits them by their keys.
    public var plan: FetchPlan<[QuerySection<Key, (Entity, repeat each Included)>]> {
        FetchPlan { tx throws(PersistenceError) in
            let (rows, keys) = try tx.rows(of: self.rows, keyedBy: key, as: Key.self)
            return QuerySection.sections(of: rows, keys: keys)
        }
    }
}

/// How a sectioned query reads each row's key.
enum SectionKey<Entity: StoredEntity>: Sendable {
    /// From the row's entity.
    case entity(@Sendable (Entity) -> any Sendable)
    /// From the row's statement, by a part.
    case part(any QueryPart)
}
