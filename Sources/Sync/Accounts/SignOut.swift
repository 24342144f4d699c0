/// What a sign-out keeps of the account's data on this device (``SyncAccounts/signOut(_:)``).
///
/// Nothing is lost unless the app asks: ``keepEverything`` and ``keepUnsentWrites`` keep every
/// write the server has not acknowledged, and send it when the account signs in again; only
/// ``clear`` discards them, and its report counts what it discarded.
public enum SignOut: Sendable, Hashable {
    /// Keeps the account's store as it is: its rows, its cursors and its unsent writes. When the
    /// account signs in again, it syncs on from where it stopped and sends its writes.
    case keepEverything
    /// Keeps the unsent writes (the outbox, with the rows they write), the rows
    /// ``RemoteCollection/retaining`` keeps, and every row a kept row refers to or that the app's
    /// own rows refer to (through declared relations); removes the rest of the synced rows, and
    /// starts every cursor over. When the account signs in again, its writes go out and its
    /// first pull reads every record again (a collection pulled by scopes keeps its scopes). The
    /// store's entities that no synced collection keeps are the app's, and stay; so does every row
    /// that holds a value of a field only this device has (``RemoteCollection/keeping``: an
    /// optional field that is not `nil`; a non-optional one holds a value on every row, so every
    /// row stays). The first pull after the return is a full resync, which also prunes the kept
    /// rows the server no longer has.
    case keepUnsentWrites
    /// Removes the account's store and cache from the device, unsent writes included.
    case clear
}
