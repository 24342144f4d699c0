import TestSupport
import Testing

@testable import FetchKit

/// The per-host limiter counts slots per attempt, so a retry and the late end of the attempt
/// it replaces never share one slot.
@Suite("Host limiter")
struct HostLimiterTests {
    typealias Token = HostLimiter.Token

    /// Records the tokens whose slot the limiter granted.
    private final class GrantRecorder: SlotHolder {
        let granted: Collector<Token>
        init(_ granted: Collector<Token>) { self.granted = granted }
        func slotGranted(_ token: Token, admission: HostLimiter.Admission) { granted.append(token) }
        func slotClockStarted(_ token: Token) {}
        func slotResend(_ token: Token) {}
    }

    /// Acquires a slot for `token` and records it in `granted` when the limiter admits it.
    private func acquire(_ limiter: HostLimiter, _ token: Token, _ granted: Collector<Token>) {
        limiter.acquire(host: "api.example.com:443", token: token, parkable: false, holder: GrantRecorder(granted))
    }

    @Test func aRetryTakesASlotOfItsOwnWhileTheAttemptItReplacesStillHoldsOne() {
        let limiter = HostLimiter(limit: 2)
        let granted = Collector<Token>()
        let firstAttempt = Token(request: 1, attempt: 1)
        let retry = Token(request: 1, attempt: 2)
        let other = Token(request: 2, attempt: 1)
        acquire(limiter, firstAttempt, granted)
        // The first attempt timed out; its cancelled exchange has not ended yet when the retry starts.
        acquire(limiter, retry, granted)
        acquire(limiter, other, granted)
        #expect(granted.values == [firstAttempt, retry], "a third request must wait: two slots are held")
        // The first attempt's exchange ends late: its slot, not the retry's, goes to the waiting request.
        limiter.release(host: "api.example.com:443", token: firstAttempt, failed: true)
        #expect(granted.values == [firstAttempt, retry, other])
        // The retry still holds its slot: a fourth request waits until it ends.
        let fourth = Token(request: 3, attempt: 1)
        acquire(limiter, fourth, granted)
        #expect(granted.values.count == 3)
        limiter.release(host: "api.example.com:443", token: retry)
        #expect(granted.values == [firstAttempt, retry, other, fourth])
    }

    @Test func aWaitingAttemptCanBeCancelledByItsOwnToken() {
        let limiter = HostLimiter(limit: 1)
        let granted = Collector<Token>()
        let running = Token(request: 1, attempt: 1)
        let waiting = Token(request: 2, attempt: 3)
        acquire(limiter, running, granted)
        acquire(limiter, waiting, granted)
        #expect(!limiter.cancelWaiting(host: "api.example.com:443", token: Token(request: 2, attempt: 2)))
        #expect(limiter.cancelWaiting(host: "api.example.com:443", token: waiting))
        limiter.release(host: "api.example.com:443", token: running)
        #expect(granted.values == [running])
    }
}
