extension ObjectTransaction {
    // The spellings a newcomer tries first, by an entity type rather than by a query. Each is
    // unavailable, with a message naming the call to use: without them the compiler answers
    // `tx.fetch(Book.self)` with "missing argument for parameter 'sql'" and `tx.count(Book.self)`
    // with "cannot conform to 'FetchRequest'". (Their bodies do what the message says.)

    /// Not a call: rows are read by a ``Query``, `tx.fetch(Query<Book>(where: …, sortedBy: …))`.
    ///
    /// - Parameters:
    ///   - type: the entity type.
    ///   - filter: the condition rows must meet.
    ///   - sort: the sort keys.
    ///   - limit: the most rows.
    ///   - offset: the rows to skip.
    /// - Returns: the entities.
    /// - Throws: ``PersistenceError``.
    @available(
        *, unavailable,
        message:
            "rows are read by a query: tx.fetch(Query<Book>()) reads every Book, tx.fetch(Query<Book>(where: …, sortedBy: …)) some; one row by its id: tx.fetch(Book.self, id: id)"
    )
    public func fetch<E: StoredEntity>(
        _ type: E.Type, where filter: Filter<E>? = nil, sortedBy sort: [Sort<E>] = [], limit: Int? = nil,
        offset: Int = 0
    ) throws(PersistenceError) -> [E] {
        try fetch(Query<E>(where: filter, sortedBy: sort, limit: limit, offset: offset))
    }

    /// Not a call: rows are counted by a ``Query``, `tx.count(Query<Book>(where: …))`.
    ///
    /// - Parameters:
    ///   - type: the entity type.
    ///   - filter: the condition rows must meet.
    /// - Returns: the count.
    /// - Throws: ``PersistenceError``.
    @available(
        *, unavailable,
        message:
            "rows are counted by a query: tx.count(Query<Book>()) counts every Book, tx.count(Query<Book>(where: …)) some"
    )
    public func count<E: StoredEntity>(_ type: E.Type, where filter: Filter<E>? = nil) throws(PersistenceError) -> Int {
        try count(Query<E>(where: filter))
    }

    /// Not a call: whether rows exist is asked by a ``Query``, `tx.exists(Query<Book>(where: …))`.
    ///
    /// - Parameters:
    ///   - type: the entity type.
    ///   - filter: the condition rows must meet.
    /// - Returns: whether a row matches.
    /// - Throws: ``PersistenceError``.
    @available(
        *, unavailable,
        message:
            "whether rows exist is asked by a query: tx.exists(Query<Book>()) for any Book, tx.exists(Query<Book>(where: …)) for some"
    )
    public func exists<E: StoredEntity>(_ type: E.Type, where filter: Filter<E>? = nil) throws(PersistenceError) -> Bool
    {
        try exists(Query<E>(where: filter))
    }

    /// Not a call: the first row is read by a ``Query``, `tx.first(Query<Book>(sortedBy: …))`.
    ///
    /// - Parameters:
    ///   - type: the entity type.
    ///   - filter: the condition rows must meet.
    ///   - sort: the sort keys.
    /// - Returns: the first entity, or `nil`.
    /// - Throws: ``PersistenceError``.
    @available(
        *, unavailable,
        message: "the first row is read by a query: tx.first(Query<Book>(where: …, sortedBy: …))"
    )
    public func first<E: StoredEntity>(
        _ type: E.Type, where filter: Filter<E>? = nil, sortedBy sort: [Sort<E>] = []
    ) throws(PersistenceError) -> E? {
        try first(Query<E>(where: filter, sortedBy: sort))
    }

    /// Not a call: rows are deleted by a ``Query``, `tx.delete(Query<Book>(where: …))`, or one
    /// by its id, `tx.delete(Book.self, id: id)`.
    ///
    /// - Parameters:
    ///   - type: the entity type.
    ///   - filter: the condition rows must meet.
    /// - Returns: how many rows were deleted.
    /// - Throws: ``PersistenceError``.
    @available(
        *, unavailable,
        message:
            "rows are deleted by a query: tx.delete(Query<Book>()) deletes every Book, tx.delete(Query<Book>(where: …)) some; one row: tx.delete(Book.self, id: id)"
    )
    @discardableResult
    public func delete<E: StoredEntity>(_ type: E.Type, where filter: Filter<E>? = nil) throws(PersistenceError) -> Int
    {
        try delete(Query<E>(where: filter))
    }
}
