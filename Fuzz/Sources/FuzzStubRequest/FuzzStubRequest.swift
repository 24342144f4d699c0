// The stub server's request parser, as a connection uses it: pipelined requests are read from
// one buffer, each head, then the body its head declares (a length or chunks). Every input is
// incomplete, a request, or a status to answer with; the parser never traps, never reads past
// the buffer, and always moves forward.
import Foundation

@testable import FetchKitTesting

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var buffer = Array(UnsafeBufferPointer(start: bytes, count: count))
    while !buffer.isEmpty {
        guard case .complete(let head, let headLength) = HTTPRequestParser.parseHead(buffer) else { return 0 }
        guard headLength > 0, headLength <= buffer.count else {
            fatalError("a head of \(headLength) bytes in a buffer of \(buffer.count)")
        }
        guard case .success(let declared) = HTTPRequestParser.declaredLength(of: head) else { return 0 }
        _ = head.wantsKeepAlive
        switch HTTPRequestParser.parseBody(buffer, from: headLength, length: declared) {
        case .complete(_, let length):
            guard headLength + length <= buffer.count else {
                fatalError("a body of \(length) bytes after a head of \(headLength) in a buffer of \(buffer.count)")
            }
            buffer.removeFirst(headLength + length)
        case .incomplete, .malformed:
            return 0
        }
    }
    return 0
}
