// The event-stream (server-sent events) parser, through the public reading path: the input is
// cut into chunks (the first byte sets their length, so a line end or a UTF-8 sequence can
// fall across two), handed to a response stream, and read as events and as lines. Every
// input gives events or a typed error; none crashes or hangs.
import Foundation

@testable import FetchKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let response = HTTPURLResponse(
    url: URL(fileURLWithPath: "/"), statusCode: 200, httpVersion: "HTTP/1.1",
    headerFields: ["Content-Type": "text/event-stream"])!

func stream(_ bytes: UnsafeBufferPointer<UInt8>) -> ResponseStream {
    let body = StreamedBody(idleTimeout: nil, describe: { FetchError(code: .transportFailed, detail: "\($0)") })
    let size = max(1, Int(bytes.first ?? 1))
    var start = bytes.isEmpty ? 0 : 1
    while start < bytes.count {
        let end = min(bytes.count, start + size)
        body.append(Data(bytes[start..<end]))
        start = end
    }
    body.finish()
    return ResponseStream(response: response, body: body)
}

/// Runs `work` to its end on the cooperative pool, and waits for it here.
func blocking(_ work: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await work()
        done.signal()
    }
    done.wait()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = UnsafeBufferPointer(start: bytes, count: count)
    let events = stream(input)
    let lines = stream(input)
    blocking {
        do {
            for try await event in events.events { _ = (event.data, event.event, event.id, event.retry) }
        } catch {}
        do {
            for try await line in lines.lines { _ = line }
        } catch {}
    }
    return 0
}
