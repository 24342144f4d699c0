extension ObjectContext {
    // The spellings a Core Data user tries first. Each is unavailable, with a message naming the
    // call to use (without them the compiler says only that the context has no such member).

    /// Not a call: a context writes in a transaction, `context.persist { tx in … }`, committed
    /// when the block returns, and reads with `context.read { tx in … }`.
    ///
    /// - Parameter block: the work of the transaction.
    @available(
        *, unavailable,
        message:
            "a context writes in a transaction: try await context.persist { tx in … } (committed when the block returns); it reads with try await context.read { tx in … }"
    )
    public func perform(_ block: @escaping @Sendable (ObjectTransaction) throws -> Void) {
        persist(block, completion: nil)
    }

    /// Not a call: there is nothing to save, `persist { tx in … }` commits its transaction when
    /// the block returns.
    @available(
        *, unavailable,
        message:
            "there is nothing to save: try await context.persist { tx in … } commits its transaction when the block returns"
    )
    public func save() {}
}
