import Foundation
public import Persistence

/// How a collection resolves conflicts: server wins, client wins, a field-by-field three-way
/// merge, a closure, or the app's own choice later.
///
/// A conflict is a server version that differs from the base of a pending local write. It is
/// found when a pull brings the record while the write waits (the pull then rebases the write
/// instead of overwriting the row), and, with a ``ConflictCheck``, when the update is sent.
public struct ConflictPolicy<Entity: StoredEntity>: Sendable {
    /// Decides a conflict.
    public let resolve: @Sendable (Conflict<Entity>) -> Resolution<Entity>

    /// A policy from a closure.
    ///
    /// - Parameter resolve: decides each conflict.
    public init(_ resolve: @escaping @Sendable (Conflict<Entity>) -> Resolution<Entity>) {
        self.resolve = resolve
    }

    /// The server's version wins; the local change is dropped.
    public static var serverWins: ConflictPolicy { ConflictPolicy { _ in .keepRemote } }

    /// The local change wins and is sent over the server's version (a local delete deletes the
    /// server's record; a local change to a record the server deleted creates it again).
    public static var clientWins: ConflictPolicy { ConflictPolicy { _ in .keepLocal } }

    /// Conflicts are parked for the app (``Resolution/park``).
    public static var manual: ConflictPolicy { ConflictPolicy { _ in .park } }

    /// A field-by-field three-way merge: a property only one side changed since the base takes
    /// that side's value; a property both changed takes `preferring`'s. A delete on either side
    /// against a change on the other keeps the change when `preferring` is that side, else
    /// deletes. Properties are the entity's encoded top-level keys.
    ///
    /// - Parameter side: whose value a property both sides changed takes.
    /// - Returns: the policy.
    public static func merge(preferring side: Side = .server) -> ConflictPolicy {
        ConflictPolicy { conflict in
            guard let local = conflict.local else { return side == .local ? .keepLocal : .keepRemote }
            guard let remote = conflict.remote else { return side == .local ? .keepLocal : .keepRemote }
            guard let merged = FieldMerge.merge(base: conflict.base, local: local, remote: remote, preferring: side)
            else { return side == .local ? .keepLocal : .keepRemote }
            return .use(merged)
        }
    }

    /// A side of a conflict.
    public enum Side: Sendable, Hashable {
        /// The server's version.
        case server
        /// The local change.
        case local
    }
}
