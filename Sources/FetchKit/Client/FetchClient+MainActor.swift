public import Foundation
import Locking

extension FetchClient {
    /// Fetches a URL and calls `completion` exactly once on the main actor, for UI code.
    ///
    /// The same as ``fetch(_:extracting:group:queue:progress:completion:)-(URL?,_,_,_,_,_)`` with
    /// `queue: .main`, but the callbacks are `@MainActor`: a view controller or a SwiftUI model,
    /// itself `@MainActor`, updates its own state in them, under Swift 6's checks.
    ///
    /// ```swift
    /// @MainActor final class BookViewController {
    ///     var title = ""
    ///     func load(_ url: URL, client: FetchClient) {
    ///         client.fetch(url, extracting: .string, on: MainActor.self) { result in
    ///             self.title = (try? result.get()) ?? "Unavailable"
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - url: the URL to fetch; `nil` fails with ``FetchError/Code-swift.struct/invalidURL``.
    ///   - extraction: how to turn the response into a value.
    ///   - group: a group to cancel this fetch with, if any.
    ///   - mainActor: `MainActor.self`: the callbacks run on the main actor.
    ///   - progress: called on the main actor with the download's progress; `nil` to not follow it.
    ///   - completion: runs exactly once, on the main actor, with the value or the ``FetchError``.
    /// - Returns: a handle that can cancel the fetch.
    @discardableResult
    public func fetch<Value: Sendable>(
        _ url: URL?, extracting extraction: Extraction<Value>, group: CancellationGroup? = nil,
        on mainActor: MainActor.Type, progress: (@MainActor (TransferProgress) -> Void)? = nil,
        completion: @escaping @MainActor (Result<Value, FetchError>) -> Void
    ) -> FetchTask {
        fetch(
            url, extracting: extraction, group: group, queue: .main, progress: progress.map(onMainActor),
            completion: onMainActor(completion))
    }

    /// Fetches an endpoint and calls `completion` exactly once on the main actor, for UI code.
    ///
    /// The same as ``fetch(_:extracting:group:queue:progress:completion:)-(Endpoint,_,_,_,_,_)``
    /// with `queue: .main`, but the callbacks are `@MainActor`, so a `@MainActor` class updates
    /// its own state in them.
    ///
    /// - Parameters:
    ///   - endpoint: the request to send.
    ///   - extraction: how to turn the response into a value.
    ///   - group: a group to cancel this fetch with, if any.
    ///   - mainActor: `MainActor.self`: the callbacks run on the main actor.
    ///   - progress: called on the main actor with the transfer's progress; `nil` to not follow it.
    ///   - completion: runs exactly once, on the main actor, with the value or the ``FetchError``.
    /// - Returns: a handle that can cancel the fetch.
    @discardableResult
    public func fetch<Value: Sendable>(
        _ endpoint: some Endpoint, extracting extraction: Extraction<Value>, group: CancellationGroup? = nil,
        on mainActor: MainActor.Type, progress: (@MainActor (TransferProgress) -> Void)? = nil,
        completion: @escaping @MainActor (Result<Value, FetchError>) -> Void
    ) -> FetchTask {
        fetch(
            endpoint, extracting: extraction, group: group, queue: .main, progress: progress.map(onMainActor),
            completion: onMainActor(completion))
    }

    /// Fetches a typed endpoint and calls `completion` exactly once on the main actor, for UI code.
    ///
    /// - Parameters:
    ///   - endpoint: the request to send, with its response type.
    ///   - group: a group to cancel this fetch with, if any.
    ///   - mainActor: `MainActor.self`: the completion runs on the main actor.
    ///   - completion: runs exactly once, on the main actor, with the value or the ``FetchError``.
    /// - Returns: a handle that can cancel the fetch.
    @discardableResult
    public func fetch<Target: TypedEndpoint>(
        _ endpoint: Target, group: CancellationGroup? = nil, on mainActor: MainActor.Type,
        completion: @escaping @MainActor (Result<Target.Response, FetchError>) -> Void
    ) -> FetchTask {
        fetch(endpoint, group: group, queue: .main, completion: onMainActor(completion))
    }
}
