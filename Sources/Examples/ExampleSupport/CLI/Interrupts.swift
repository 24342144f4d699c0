public import Dispatch
import Foundation

/// Ctrl-C for the example programs: SIGINT stops killing the program and calls a handler.
public enum Interrupts {
    /// Ignores SIGINT's default action and calls `handler` on `queue` for each Ctrl-C, and
    /// returns only once the signal source is armed.
    ///
    /// A Dispatch signal source is registered asynchronously after `resume()`: a Ctrl-C that
    /// came in between (a test that interrupts as soon as the program prints) would be
    /// ignored and lost. Waiting for the registration handler closes that window.
    ///
    /// - Parameters:
    ///   - queue: where `handler` runs.
    ///   - handler: called once per SIGINT.
    /// - Returns: the source; cancel it (and restore `SIG_DFL` if wanted) when done.
    public static func listen(
        on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void
    ) async -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: queue)
        source.setEventHandler(handler: handler)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            source.setRegistrationHandler { continuation.resume() }
            source.resume()
        }
        return source
    }
}
