import Foundation
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Adds a token to every request and, when the server rejects it, gets a new one once for
/// every request that was rejected at the same time.
///
/// ```swift
/// let authenticator = TokenAuthenticator(token: savedToken) {
///     try await signIn.refreshToken()   // your code: returns a new access token
/// }
/// let client = FetchClient { $0.authenticator = authenticator }
/// ```
///
/// How it behaves:
/// - Each attempt carries the current token (`Authorization: Bearer …` by default). With
///   no token yet, the first request gets one from `refresh` before it is sent.
/// - A response with a status in `rejectionStatuses` (401 by default) triggers one refresh:
///   single-flight, so 100 requests rejected at once cause one call of `refresh`, and all
///   100 are sent again with the new token. A request rejected with a token that was
///   already replaced is simply sent again with the newer one.
/// - A token that is a JWT (three base64url parts) whose `exp` claim is less than 5 seconds
///   away is refreshed before it is sent, as a rejected one would be: some servers (PocketBase)
///   answer an expired token as a guest's request, with an empty list instead of a `401`.
/// - A request is sent again at most once after a rejection: if the new token is rejected
///   too, it fails with ``FetchError/Code-swift.struct/unacceptableStatus`` (401). It never loops.
/// - When `refresh` throws, every request waiting for it fails with the same
///   ``FetchError/Code-swift.struct/authenticationFailed`` error, and so does every request
///   that was sent before the failure and is rejected after it with the same token: one failed
///   refresh is one call of `refresh`, however the rejections and the failure interleave. A
///   request sent after the failure that is rejected again starts the next refresh.
/// - The token is a secret: it is redacted from descriptions, logs, errors and `dump()`.
public final class TokenAuthenticator: Sendable, CustomStringConvertible, CustomReflectable {
    /// Where the token goes.
    public enum Placement: Sendable, Hashable {
        /// `Authorization: Bearer <token>`.
        case bearer
        /// A header field with this name, the token after `prefix` (`""` for none).
        case header(name: String, prefix: String)
        /// A query item with this name.
        case query(name: String)
    }

    private struct State {
        var token: String?
        var refreshing = false
        var waiting: [@Sendable (Result<TokenGrant, FetchError>) -> Void] = []
        var refreshes = 0
        /// How many refreshes have failed: a request's ``TokenGrant/epoch`` is this count when
        /// it got its token, so a rejection can tell whether a failure came after its sending.
        var failures = 0
        /// The error of the last failed refresh, for the requests sent before it.
        var lastFailure: FetchError?
    }

    /// Where the token goes.
    public let placement: Placement
    /// The statuses that mean "this token is no longer accepted"; `[401]` by default.
    let rejectionStatuses: Set<Int>
    private let refresh: @Sendable () async throws -> String
    private let state: Locked<State>

    /// Creates an authenticator.
    ///
    /// - Parameters:
    ///   - token: the token to start with, or `nil` to get one with `refresh` before the first request.
    ///   - placement: where the token goes; `Authorization: Bearer` by default.
    ///   - rejectionStatuses: the statuses that trigger a refresh; `[401]` by default.
    ///   - refresh: gets a new token (from a refresh token, a sign-in); called once at a
    ///     time, never concurrently with itself.
    public init(
        token: String? = nil, placement: Placement = .bearer, rejectionStatuses: Set<Int> = [401],
        refresh: @escaping @Sendable () async throws -> String
    ) {
        self.placement = placement
        self.rejectionStatuses = rejectionStatuses
        self.refresh = refresh
        self.state = Locked(State(token: token.flatMap { $0.isEmpty ? nil : $0 }))
    }

    /// The current token, if any.
    public var token: String? { state.withLock { $0.token } }

    /// Replaces the token (after a sign-in) or clears it (after a sign-out: the next
    /// request refreshes first).
    ///
    /// - Parameter token: the new token, or `nil`.
    public func setToken(_ token: String?) {
        state.withLock { $0.token = token.flatMap { $0.isEmpty ? nil : $0 } }
    }

    /// How many times `refresh` has been called.
    public var refreshCount: Int { state.withLock { $0.refreshes } }

    /// `TokenAuthenticator(bearer, token: REDACTED)`: the token is never shown.
    public var description: String {
        let placement: String =
            switch self.placement {
            case .bearer: "bearer"
            case .header(let name, _): "header \(name)"
            case .query(let name): "query \(name)"
            }
        return "TokenAuthenticator(\(placement), token: \(token == nil ? "none" : Redactor.placeholder))"
    }

    /// A mirror without the token, so `dump()` shows none.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "placement": placement, "rejectionStatuses": rejectionStatuses,
                "token": token == nil ? "none" : Redactor.placeholder,
            ], displayStyle: .class)
    }

    // MARK: Internals

    /// The header or query-item name the token travels under.
    var secretName: String {
        switch placement {
        case .bearer: "authorization"
        case .header(let name, _): name
        case .query(let name): name
        }
    }

    /// The current token, or a refreshed one when there is none yet, or when the current one is
    /// a JWT that expires within ``expiryMargin`` (its `exp` claim). A refresh this starts is
    /// reported to `observers`.
    func currentToken(
        observers: [any FetchObserver], _ completion: @escaping @Sendable (Result<TokenGrant, FetchError>) -> Void
    ) {
        let (grant, refreshing) = state.withLock { state in
            (state.token.map { TokenGrant(token: $0, epoch: state.failures) }, state.refreshing)
        }
        // A token near its expiry is still valid: while a refresh runs (this request may be the
        // refresh's own, sent through this client), it goes as it is.
        if let grant, refreshing || !Self.expires(grant.token, before: Date().addingTimeInterval(Self.expiryMargin)) {
            completion(.success(grant))
        } else {
            renew(replacing: grant, observers: observers, completion)
        }
    }

    /// How long before its `exp` a JWT is refreshed rather than sent: some servers (PocketBase)
    /// answer an expired token as a guest, with an empty list rather than a `401`.
    static let expiryMargin: TimeInterval = 5

    /// Whether `token` is a JWT whose `exp` claim comes before `date` (a token of another kind,
    /// or without the claim, never expires here).
    static func expires(_ token: String, before date: Date) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return false }
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        guard let data = Data(base64Encoded: payload),
            let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let expiry = (claims["exp"] as? NSNumber)?.doubleValue
        else { return false }
        return Date(timeIntervalSince1970: expiry) < date
    }

    /// A token newer than `rejected`: the current one if it was already replaced; the error of
    /// a refresh that failed after `rejected` was handed out (the rejection is the one that
    /// refresh was for); else the result of the one refresh in flight (started now if none is, and
    /// then reported to `observers` when it ends).
    func renew(
        replacing rejected: TokenGrant?, observers: [any FetchObserver],
        _ completion: @escaping @Sendable (Result<TokenGrant, FetchError>) -> Void
    ) {
        enum Step {
            case use(TokenGrant)
            case fail(FetchError)
            case wait
            case start
        }
        let step = state.withLock { state -> Step in
            if let token = state.token, token != rejected?.token {
                return .use(TokenGrant(token: token, epoch: state.failures))
            }
            if let rejected, rejected.epoch < state.failures, let failure = state.lastFailure {
                return .fail(failure)
            }
            state.waiting.append(completion)
            if state.refreshing { return .wait }
            state.refreshing = true
            state.refreshes += 1
            return .start
        }
        switch step {
        case .use(let grant): completion(.success(grant))
        case .fail(let error): completion(.failure(error))
        case .wait: break
        case .start:
            let refresh = self.refresh
            Task { [self] in
                let started = ContinuousClock.now
                let result: Result<String, FetchError>
                let known = [rejected?.token, self.token].compactMap { $0 }
                func failure(_ error: any Error) -> FetchError {
                    FetchError(
                        code: .authenticationFailed,
                        detail: "the token refresh failed: " + Redactor.standard.scrub("\(error)", secrets: known))
                }
                do {
                    let token = try await refresh()
                    result =
                        token.isEmpty
                        ? .failure(
                            FetchError(code: .authenticationFailed, detail: "the token refresh returned an empty token")
                        )
                        : .success(token)
                } catch {
                    result = .failure(failure(error))
                }
                let (waiting, delivered) = state.withLock { state in
                    let delivered: Result<TokenGrant, FetchError>
                    switch result {
                    case .success(let token):
                        state.token = token
                        delivered = .success(TokenGrant(token: token, epoch: state.failures))
                    case .failure(let error):
                        state.failures += 1
                        state.lastFailure = error
                        delivered = .failure(error)
                    }
                    state.refreshing = false
                    let waiting = state.waiting
                    state.waiting = []
                    return (waiting, delivered)
                }
                let elapsed = ContinuousClock.now - started
                // Observers hear of the refresh before the requests that waited for it go on (so a
                // request's own report never comes before its refresh's); they are to be quick.
                let failure: FetchError? = if case .failure(let error) = delivered { error } else { nil }
                for observer in observers { observer.tokenRefreshDidFinish(after: elapsed, error: failure) }
                for waiter in waiting { waiter(delivered) }
            }
        }
    }

    /// `request` with `token` in its place.
    func apply(_ token: String, to request: URLRequest) -> URLRequest {
        var request = request
        switch placement {
        case .bearer:
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        case .header(let name, let prefix):
            request.setValue(prefix.isEmpty ? token : "\(prefix)\(token)", forHTTPHeaderField: name)
        case .query(let name):
            guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
            else { return request }
            var items = (components.percentEncodedQuery ?? "").split(separator: "&").map(String.init)
            items.removeAll {
                $0.split(separator: "=", maxSplits: 1).first.map(String.init) == PercentEncoding.encode(name)
            }
            items.append(PercentEncoding.encode(name) + "=" + PercentEncoding.encode(token))
            components.percentEncodedQuery = items.joined(separator: "&")
            request.url = components.url ?? url
        }
        return request
    }
}

/// A token as a request received it: the token, and how many refreshes had failed by then
/// (so a rejection that arrives after a failed refresh shares that refresh's error).
struct TokenGrant: Sendable, Equatable {
    let token: String
    let epoch: Int
}
