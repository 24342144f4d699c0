import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Whether `error` reports a cancellation rather than a failure: Swift's
/// `CancellationError`, a cancelled ``FetchError``, or
/// `URLError.cancelled`.
func isCancellation(_ error: any Error) -> Bool {
    switch error {
    case is CancellationError: return true
    case let error as FetchError: return error.code == .cancelled
    case let error as URLError: return error.code == .cancelled
    default: return false
    }
}
