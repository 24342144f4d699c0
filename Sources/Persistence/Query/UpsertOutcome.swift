/// What an upsert did.
public enum UpsertOutcome: Sendable, Hashable {
    /// No stored row matched: the entity was inserted.
    case inserted
    /// A stored row matched: it was updated (with the conflict rules applied).
    case updated
    /// A stored row matched and was as new as the entity or newer, by the property of an
    /// ``ConflictRule/onlyIfNewer(_:)`` rule: nothing was written.
    case kept
}
