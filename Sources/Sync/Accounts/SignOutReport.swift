/// What a sign-out did (``SyncAccounts/signOut(_:)``).
public struct SignOutReport: Sendable, Hashable {
    /// The account that signed out.
    public var account: String
    /// What the sign-out kept.
    public var choice: SignOut
    /// The writes the server had not acknowledged (pending, being sent, rejected or in conflict):
    /// kept for the account's return, or, after ``SignOut/clear``, discarded; `nil` when a clear
    /// of an account an earlier launch signed in could not open its store to count them (it
    /// removes the store all the same).
    public var unsentWrites: Int?
    /// The synced rows removed from the store (``SignOut/keepUnsentWrites``; every row of the
    /// store is gone after ``SignOut/clear``, and this counts none).
    public var removedRows: Int
}
