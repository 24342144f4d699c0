/// How long FetchKitTesting waits in real time for something that must happen: the default of
/// the stub server's and the test clock's waits, and the bound of the conformance checks.
///
/// Test runners start every test at once (Swift Testing shares the cores among all the tests it
/// started, so most end near the end of the whole run), so a wait can be held up for as long as
/// the rest of a suite keeps the cores busy. Thirty minutes outlasts a whole suite on a two-core
/// machine: the bound is reached only when something hangs.
@usableFromInline
enum HangBound {
    /// Thirty minutes.
    @usableFromInline
    static let duration: Duration = .seconds(1800)
}
