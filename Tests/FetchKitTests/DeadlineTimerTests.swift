import Foundation
import TestSupport
import Testing

@testable import FetchKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one Dispatch timer behind every timeout and retry wait on real time, and the response
/// head a transport hands over without building an `HTTPURLResponse`.
@Suite("Deadline timer and response parts")
struct DeadlineTimerTests {
    @Test func actionsRunInDeadlineOrderWhateverTheOrderTheyWereScheduledIn() async throws {
        let ran = Collector<String>()
        let timer = DeadlineTimer()
        // Scheduled latest first: each earlier deadline sets the one timer again.
        _ = timer.schedule(after: .milliseconds(90)) { ran.append("c") }
        _ = timer.schedule(after: .milliseconds(60)) { ran.append("b") }
        _ = timer.schedule(after: .milliseconds(30)) { ran.append("a") }
        try await waitUntil("the actions to run") { ran.count == 3 }
        #expect(ran.values == ["a", "b", "c"])
    }

    @Test func aCancelledActionNeverRunsAndTheOthersStillDo() async throws {
        let ran = Collector<String>()
        let timer = DeadlineTimer()
        let early = timer.schedule(after: .milliseconds(20)) { ran.append("cancelled") }
        _ = timer.schedule(after: .milliseconds(40)) { ran.append("kept") }
        timer.cancel(early)
        timer.cancel(early)  // a second cancel changes nothing
        try await waitUntil("the actions to run") { ran.count == 1 }
        // Actions run in deadline order, so the earlier, cancelled one would have run first;
        // and the timer holds nothing more.
        #expect(ran.values == ["kept"])
        #expect(timer.pendingCount == 0)
    }

    @Test func thousandsOfCancelledLongDeadlinesDoNotPileUp() async throws {
        let timer = DeadlineTimer()
        // As a client's requests do: a 60 s timeout each, cancelled when the response comes.
        let kept = timer.schedule(after: .seconds(60)) {}
        for _ in 0..<5_000 {
            let id = timer.schedule(after: .seconds(60)) {}
            timer.cancel(id)
        }
        #expect(timer.pendingCount == 1)
        #expect(timer.storedCount <= 65)
        timer.cancel(kept)
        // A short deadline scheduled after them still runs on time.
        let ran = Collector<String>()
        _ = timer.schedule(after: .milliseconds(10)) { ran.append("due") }
        try await waitUntil("the actions to run") { ran.count == 1 }
    }

    @Test func aScheduledActionCancelledBeforeItStartsNeverRuns() async throws {
        let ran = Collector<String>()
        let action = ScheduledAction()
        action.cancel()
        action.start(after: .milliseconds(5), on: ContinuousClock()) { ran.append("ran") }
        let other = ScheduledAction()
        other.start(after: .milliseconds(30), on: ContinuousClock()) { ran.append("other") }
        try await waitUntil("the actions to run") { ran.count == 1 }
        #expect(ran.values == ["other"])
    }

    @Test func aResponseFromPartsAnswersStatusAndHeadersAndBuildsItsHTTPURLResponseOnce() throws {
        let url = try #require(URL(string: "https://api.example.com/movie/550"))
        let response = TransportResponse(
            url: url, statusCode: 429, httpVersion: "HTTP/1.1",
            headerFields: ["Retry-After": "7", "Content-Type": "application/json; charset=utf-8"], data: Data("{}".utf8)
        )
        #expect(response.statusCode == 429)
        #expect(response.value(forHTTPHeaderField: "retry-after") == "7")
        #expect(response.value(forHTTPHeaderField: "X-Missing") == nil)
        let built = response.response
        #expect(built.statusCode == 429)
        #expect(built.url == url)
        #expect(built.value(forHTTPHeaderField: "Retry-After") == "7")
        #expect(built.textEncodingName == "utf-8")
        #expect(response.response === built)
        var replaced = response
        let other = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: [:]))
        replaced.response = other
        #expect(replaced.statusCode == 200)
        #expect(response.statusCode == 429)
    }
}
