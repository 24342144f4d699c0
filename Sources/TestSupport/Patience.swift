public import Dispatch
import Locking

/// How long tests wait: bounds that only a hang reaches, and delays that outlast any test.
///
/// `swift test` runs every test at once on a machine with two cores, so a test that waits for
/// something can be held up for as long as the rest of the suite keeps both cores busy (over a
/// minute on a slow CI machine). A wait's bound therefore says "this hung", never "this was
/// slow": it is far longer than the whole suite takes, and reached only when something is stuck.
public enum Patience {
    /// The bound on waiting for something that must happen: reached only when it never does.
    public static let hang: Duration = .seconds(300)

    /// ``hang`` from now, for Dispatch's blocking waits (`DispatchSemaphore.wait(timeout:)`).
    public static var hangDeadline: DispatchTime { hang.fromNow }

    /// A server delay meant to outlast the test that asks for it (the test cancels or times
    /// the request out first); longer than ``hang``, so even a starved test cancels in time.
    public static let beyondTheTest: Duration = .seconds(900)
}
