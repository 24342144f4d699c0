// Path expressions: the first line of the input is a path (`results[0].title`, a filter, a
// quoted key), the rest a JSON document. The path is parsed, then a value is decoded at it;
// either may throw, neither may crash.
import Foundation

@testable import Decoding

/// Any value at the path: a string, a number, an array or an object of them.
struct Anything: Decodable {
    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            while !array.isAtEnd { _ = try array.decode(Anything.self) }
        } else if let object = try? decoder.container(keyedBy: Key.self) {
            for key in object.allKeys { _ = try object.decode(Anything.self, forKey: key) }
        } else {
            let value = try decoder.singleValueContainer()
            if !value.decodeNil() { _ = try? value.decode(String.self) }
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// A model whose coding keys are path keys, as an API's model has them.
struct Keyed: Decodable {
    var first: String?
    var second: Double?

    enum CodingKeys: String, CodingKey {
        case first = "results[0].title"
        case second = "meta.count"
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: bytes, count: count)
    let newline = buffer.firstIndex(of: 10) ?? count
    let path = String(decoding: buffer[0..<newline], as: UTF8.self)
    let document = Data(buffer[min(count, newline + 1)..<count])
    _ = try? PathExpression(parsing: path)
    _ = try? PathDecoder().decode(Anything.self, from: document, at: path)
    _ = try? PathDecoder().decode([String].self, from: document, at: path)
    _ = try? PathDecoder().decode(Keyed.self, from: document)
    return 0
}
