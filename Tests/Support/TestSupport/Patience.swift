public import Dispatch
import Locking

/// How long tests wait: bounds that only a hang reaches, and delays that outlast any test.
///
/// `swift test` starts every Swift Testing test at once and runs them on a cooperative pool of
/// one thread per core, sharing two cores among a thousand tests: a test that waits for
/// something is held up for as long as the rest of the suite keeps both cores busy, and most
/// tests end near the end of the whole run (on a two-core machine, 95% of them in the run's last
/// 40%). A wait's bound therefore says "this hung", never "this was slow": it is several times
/// longer than the whole run takes (seven minutes here, more on a slower CI machine), and
/// reached only when something is stuck. (Five minutes was once enough; the suite outgrew it,
/// and waits began to expire on runs that were only long.)
public enum Patience {
    /// The bound on waiting for something that must happen: reached only when it never does.
    public static let hang: Duration = .seconds(1800)

    /// ``hang`` from now, for Dispatch's blocking waits (`DispatchSemaphore.wait(timeout:)`).
    public static var hangDeadline: DispatchTime { hang.fromNow }

    /// A server delay meant to outlast the test that asks for it (the test cancels or times
    /// the request out first); longer than ``hang``, so even a starved test cancels in time.
    public static let beyondTheTest: Duration = .seconds(3600)
}
