public import Persistence

/// How a collection resolves conflicts: server wins (the default), client wins, a closure, or the
/// app's own choice later.
///
/// Every policy merges field by field. A local change and a server change to different
/// properties of a record are no conflict: the server's record with the local changes on top is
/// sent, and the policy is not asked. A conflict (``Conflict``) is two changes to the same
/// property, to different values (``Conflict/fields``), or a delete on one side against a change
/// on the other; it is found when a pull brings the record while the write waits, and, with a
/// ``ConflictCheck``, when the update is sent.
public struct ConflictPolicy<Entity: StoredEntity>: Sendable {
    /// Decides a conflict.
    public let resolve: @Sendable (Conflict<Entity>) -> Resolution<Entity>

    /// A policy from a closure.
    ///
    /// ```swift
    /// let ratings = ConflictPolicy<Book> { conflict in
    ///     conflict.fields == ["rating"] ? .keepLocal : .keepRemote   // this device's rating wins
    /// }
    /// ```
    ///
    /// - Parameter resolve: decides each conflict.
    public init(_ resolve: @escaping @Sendable (Conflict<Entity>) -> Resolution<Entity>) {
        self.resolve = resolve
    }

    /// The server's values of the properties both sides changed win; the local changes to other
    /// properties are sent. A delete on either side against a change on the other: the server's
    /// side stands (``Resolution/keepRemote``).
    public static var serverWins: ConflictPolicy { ConflictPolicy { _ in .keepRemote } }

    /// The local values of the properties both sides changed win and are sent over the server's;
    /// the server's changes to other properties are kept. A local delete deletes the server's
    /// record; a local change to a record the server deleted creates it again
    /// (``Resolution/keepLocal``).
    public static var clientWins: ConflictPolicy { ConflictPolicy { _ in .keepLocal } }

    /// Conflicts are parked for the app (``Resolution/park``).
    public static var manual: ConflictPolicy { ConflictPolicy { _ in .park } }
}
