/// One delivery of a sectioned query: its sections now, and what changed since the last delivery,
/// per section, as a table or collection view with section headers applies it.
///
/// Section changes match sections by key: ``sectionChanges`` has the positions of deleted sections
/// (among the previous ones), of inserted sections (among the new ones), of sections that moved, and
/// of sections whose rows changed. ``rowChanges`` holds one ``ChangeSet`` per section in ``sections``:
/// positions within the section, deleted ones among the section's previous rows. A row whose key
/// changed is deleted from its old section and inserted into its new one; an inserted section's rows
/// are all inserted.
public struct SectionedChange<Key: Hashable & Sendable, Entity: StoredEntity>: Sendable {
    /// The sections, in the order of their first rows in the query.
    public let sections: [QuerySection<Key, Entity>]
    /// How the list of sections changed.
    public let sectionChanges: ChangeSet
    /// How each section's rows changed, one change set per element of ``sections``.
    public let rowChanges: [ChangeSet]
    /// Whether this is the first delivery, made when observation starts.
    public let isInitial: Bool
}
