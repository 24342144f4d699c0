/// Which entity a pooled row coder served at each generation, so that an error for a kept
/// container names the entity it was handed to, even after the coder moved on to others.
///
/// A coder appends an entry when it starts serving another entity; the last 64 entries are kept
/// (older stamps are reported without an entity, never with a wrong one).
struct SchemaHistory {
    private var entries: [(since: UInt, entity: String)]

    init(entity: String) {
        entries = [(0, entity)]
    }

    /// Records that the coder serves `entity` from generation `since` on.
    mutating func switched(to entity: String, since: UInt) {
        entries.append((since, entity))
        if entries.count > 64 { entries.removeFirst(entries.count - 64) }
    }

    /// The entity the coder served at generation `stamp`, if the history still holds it.
    func entity(at stamp: UInt) -> String? {
        guard let first = entries.first, first.since == 0 || stamp >= first.since else { return nil }
        return entries.last { $0.since <= stamp }?.entity
    }
}
