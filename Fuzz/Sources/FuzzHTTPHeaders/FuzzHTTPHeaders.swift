// HTTP dates (IMF-fixdate, RFC 850, asctime) and `Cache-Control`: the input as header text is
// parsed both ways; a date that parses formats back to a date that parses to the same instant.
import Foundation

@testable import FetchKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    if let date = HTTPDate.parse(text) {
        let formatted = HTTPDate.format(date)
        guard let again = HTTPDate.parse(formatted), again == date else {
            fatalError("\(text.debugDescription) parsed to \(date), formatted as \(formatted), which parses to another date")
        }
    }
    let control = CacheControl.parse(text)
    _ = control
    _ = CacheControl.deltaSeconds(text)
    return 0
}
