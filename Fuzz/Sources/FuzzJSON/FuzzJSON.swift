// The JSON parser and PathDecoder against JSONDecoder: for every input, the same value or both
// throw; neither crashes. Also decodes every integer width with PathDecoder alone (JSONDecoder
// stops on a precondition for some integers; PathDecoder must never reach it).
import Foundation

@testable import Decoding

/// Any JSON value, read the same way by both decoders (numbers as `Double`: an integer type
/// would reach JSONDecoder's own precondition on some inputs, which is not what this compares).
enum AnyJSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [AnyJSON] = []
            while !array.isAtEnd { items.append(try array.decode(AnyJSON.self)) }
            self = .array(items)
            return
        }
        if let object = try? decoder.container(keyedBy: Key.self) {
            var items: [String: AnyJSON] = [:]
            for key in object.allKeys { items[key.stringValue] = try object.decode(AnyJSON.self, forKey: key) }
            self = .object(items)
            return
        }
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? value.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try value.decode(String.self))
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// A typed document: optional fields of each kind, as an API's model has them.
struct Typed: Decodable, Equatable {
    var id: Double?
    var name: String?
    var flag: Bool?
    var items: [Double]?
    var nested: [String: String]?
}

/// Integer widths, decoded by PathDecoder alone.
struct Integers: Decodable {
    var a: Int?
    var b: Int8?
    var c: UInt64?
    var d: Int32?
    var e: [Int]?
}

func same<T: Decodable & Equatable>(_ type: T.Type, _ data: Data) {
    let ours = Result { try PathDecoder().decode(type, from: data) }
    let theirs = Result { try JSONDecoder().decode(type, from: data) }
    switch (ours, theirs) {
    case (.success(let a), .success(let b)):
        if a != b, !(hasNaN(a) && hasNaN(b)) {
            fatalError("PathDecoder and JSONDecoder disagree on \(type): \(a) vs \(b)")
        }
    case (.failure, .failure):
        break
    case (.success(let a), .failure(let error)):
        fatalError("PathDecoder decoded \(type) as \(a); JSONDecoder threw \(error)")
    case (.failure(let error), .success(let b)):
        fatalError("JSONDecoder decoded \(type) as \(b); PathDecoder threw \(error)")
    }
}

func hasNaN(_ value: some Any) -> Bool { "\(value)".contains("nan") }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    same(AnyJSON.self, data)
    same(Typed.self, data)
    _ = try? PathDecoder().decode(Integers.self, from: data)
    _ = try? PathDecoder().decode([Int64].self, from: data)
    _ = try? PathDecoder().decode(Decimal.self, from: data)
    return 0
}
