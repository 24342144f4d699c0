/// How the store reads what a ``QueryInclusion`` adds to each row of a query.
public struct Inclusion<Included: Sendable>: Sendable {
    let erased: ErasedInclusion

    init(entity: ObjectIdentifier, entityName: String, label: String, part: any QueryPart) {
        erased = ErasedInclusion(entity: entity, entityName: entityName, label: label, part: part)
    }
}

/// What an ``Inclusion`` reads, whatever its type.
struct ErasedInclusion: Sendable {
    /// The entity whose rows bring it.
    let entity: ObjectIdentifier
    let entityName: String
    /// What the inclusion is, as messages name it.
    let label: String
    let part: any QueryPart
}
