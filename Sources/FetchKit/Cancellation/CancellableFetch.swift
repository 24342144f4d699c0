/// A handle that cancels what it started, whatever that returns: every ``FetchTask``, of any
/// value type, and every ``RunHandle`` of a fan-out or a pagination.
///
/// Handles of different kinds go in one list, and are cancelled together:
///
/// ```swift
/// var loads: [any CancellableFetch] = []
/// loads.append(client.fetch(.url(cover), extracting: .data) { result in … })
/// loads.append(client.fetch(Catalogue.book(id), extracting: .decode(Book.self)) { result in … })
/// for load in loads { load.cancel() }
/// ```
///
/// In `async` code, a fetch whose handle is kept is started with `completion: nil` and its
/// value awaited (`try await task.value`); the handle cancels it as in callback code. (A plain
/// `try await client.fetch(…)` is cancelled with its Swift task.) To cancel fetches not started
/// yet along with the running ones, pass a ``CancellationGroup`` to each fetch instead.
public protocol CancellableFetch: AnyObject, Sendable {
    /// Cancels what the handle started, if it has not finished: a fetch ends with
    /// ``FetchError/Code-swift.struct/cancelled``. Calling it again, or after the end, does nothing.
    func cancel()
}

extension FetchTask: CancellableFetch {}

extension RunHandle: CancellableFetch {}
