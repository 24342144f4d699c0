import Decoding
import Foundation

/// Any JSON value, decoded as users most often write it: probe `try? container(keyedBy:)`, then
/// `try? unkeyedContainer()`, then the single value as `Bool`, `Int64`, `Double`, `String`.
indirect enum AnyJSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var members: [String: AnyJSON] = [:]
            for key in container.allKeys {
                members[key.stringValue] = try container.decode(AnyJSON.self, forKey: key)
            }
            self = .object(members)
        } else if var container = try? decoder.unkeyedContainer() {
            var elements: [AnyJSON] = []
            while !container.isAtEnd { elements.append(try container.decode(AnyJSON.self)) }
            self = .array(elements)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let bool = try? single.decode(Bool.self) {
                self = .bool(bool)
            } else if let integer = try? single.decode(Int64.self) {
                self = .integer(integer)
            } else if let double = try? single.decode(Double.self) {
                self = .double(double)
            } else {
                self = .string(try single.decode(String.self))
            }
        }
    }

    /// The value as text, an object's members in key order.
    var text: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "\(value)"
        case .integer(let value): return "\(value)"
        case .double(let value): return "\(value)d"
        case .string(let value): return "\"\(value)\""
        case .array(let elements): return "[" + elements.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            let sorted = members.sorted { $0.key < $1.key }
            return "{" + sorted.map { "\($0.key):\($0.value.text)" }.joined(separator: ",") + "}"
        }
    }
}

/// A value read with every kind of request, each under `try?` or `do`/`catch`, at every depth:
/// what each request gave or threw (the error's case, coding path and message) is recorded, so
/// two decodings are equal only when every request answered the same on both.
struct Prober: Decodable, Equatable {
    /// One line per request, in the order they were made.
    var log: [String] = []

    init(from decoder: any Decoder) throws {
        log.append("at \(Self.spell(decoder.codingPath))")
        probeKeyed(decoder)
        probeUnkeyed(decoder)
        probeSingleValue(decoder)
    }

    private mutating func note<T>(_ label: String, _ body: () throws -> T) {
        do {
            log.append("\(label): \(try body())")
        } catch let error as DecodingError {
            log.append("\(label) threw \(ErrorShape(error))")
        } catch {
            log.append("\(label) threw \(type(of: error))")
        }
    }

    private mutating func probeKeyed(_ decoder: any Decoder) {
        let container: KeyedDecodingContainer<AnyCodingKey>
        do {
            container = try decoder.container(keyedBy: AnyCodingKey.self)
        } catch {
            note("keyed") { throw error }
            return
        }
        let missing = AnyCodingKey("no such key")
        let keys = container.allKeys.sorted { $0.stringValue < $1.stringValue }
        log.append("keys \(keys.map(\.stringValue))")
        for key in keys + [missing] {
            let name = key.stringValue
            note("contains \(name)") { container.contains(key) }
            note("nil \(name)") { try container.decodeNil(forKey: key) }
            note("bool \(name)") { try container.decode(Bool.self, forKey: key) }
            note("int \(name)") { try container.decode(Int.self, forKey: key) }
            note("int8 \(name)") { try container.decode(Int8.self, forKey: key) }
            note("uint64 \(name)") { try container.decode(UInt64.self, forKey: key) }
            note("double \(name)") { try container.decode(Double.self, forKey: key) }
            note("float \(name)") { try container.decode(Float.self, forKey: key) }
            note("string \(name)") { try container.decode(String.self, forKey: key) }
            note("url \(name)") { try container.decode(URL.self, forKey: key) }
            note("date \(name)") { try container.decode(Date.self, forKey: key) }
            note("int? \(name)") { try container.decodeIfPresent(Int.self, forKey: key) as Any }
            note("string? \(name)") { try container.decodeIfPresent(String.self, forKey: key) as Any }
            note("[int]? \(name)") { try container.decodeIfPresent([Int].self, forKey: key) as Any }
            note("optional int \(name)") { try container.decode(Int?.self, forKey: key) as Any }
            note("[string] \(name)") { try container.decode([String].self, forKey: key) }
            // Which member's error a dictionary throws depends on the order keys are visited in,
            // which differs between the routes (see `FastDeferral.Reason.keyOrder`).
            note("[string: int] \(name)") { Self.sorted(try? container.decode([String: Int].self, forKey: key)) }
            note("keyed \(name)") {
                Self.spell(try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key).codingPath)
            }
            note("unkeyed \(name)") { try container.nestedUnkeyedContainer(forKey: key).count as Any }
            if key.stringValue != missing.stringValue {
                do { log += try container.decode(Prober.self, forKey: key).log } catch {
                    note("probe \(name)") { throw error }
                }
            }
        }
    }

    private mutating func probeUnkeyed(_ decoder: any Decoder) {
        do {
            var probes = try decoder.unkeyedContainer()
            var elements = try decoder.unkeyedContainer()
            log.append("count \(probes.count as Any)")
            while !probes.isAtEnd {
                let index = probes.currentIndex
                // Requests that fail leave the container where it is; the first that succeeds moves on.
                note("[\(index)] keyed") {
                    Self.spell(try probes.nestedContainer(keyedBy: AnyCodingKey.self).codingPath)
                }
                guard probes.currentIndex == index else { continue }
                note("[\(index)] unkeyed") { try probes.nestedUnkeyedContainer().count as Any }
                guard probes.currentIndex == index else { continue }
                note("[\(index)] nil") { try probes.decodeNil() }
                guard probes.currentIndex == index else { continue }
                note("[\(index)] int64") { try probes.decode(Int64.self) }
                guard probes.currentIndex == index else { continue }
                note("[\(index)] uint8") { try probes.decode(UInt8.self) }
                guard probes.currentIndex == index else { continue }
                note("[\(index)] int?") { try probes.decodeIfPresent(Int.self) as Any }
                guard probes.currentIndex == index else { continue }
                note("[\(index)] double") { try probes.decode(Double.self) }
                guard probes.currentIndex == index else { continue }
                note("[\(index)] bool") { try probes.decode(Bool.self) }
                guard probes.currentIndex == index else { continue }
                note("[\(index)] url") { try probes.decode(URL.self) }
                guard probes.currentIndex == index else { continue }
                note("[\(index)] string") { try probes.decode(String.self) }
                guard probes.currentIndex == index else { continue }
                note("[\(index)] any") { try probes.decode(AnyJSON.self).text }
                // Nothing read the element (the fast path gave up, and every request throws).
                if probes.currentIndex == index { break }
            }
            note("end nil") { try probes.decodeNil() }
            note("end string") { try probes.decode(String.self) }
            note("end int") { try probes.decode(Int.self) }
            note("end any") { try probes.decode(AnyJSON.self).text }
            note("end keyed") { Self.spell(try probes.nestedContainer(keyedBy: AnyCodingKey.self).codingPath) }
            note("end unkeyed") { try probes.nestedUnkeyedContainer().count as Any }
            note("end string?") { try probes.decodeIfPresent(String.self) as Any }
            note("end any?") { try probes.decodeIfPresent(AnyJSON.self)?.text as Any }
            note("end index") { probes.currentIndex }
            while !elements.isAtEnd {
                let index = elements.currentIndex
                do { log += try elements.decode(Prober.self).log } catch {
                    note("probe [\(index)]") { throw error }
                }
                if elements.currentIndex == index { break }
            }
        } catch {
            note("unkeyed") { throw error }
        }
    }

    private mutating func probeSingleValue(_ decoder: any Decoder) {
        do {
            let single = try decoder.singleValueContainer()
            note("nil") { single.decodeNil() }
            note("bool") { try single.decode(Bool.self) }
            note("int") { try single.decode(Int.self) }
            note("int64") { try single.decode(Int64.self) }
            note("uint16") { try single.decode(UInt16.self) }
            note("double") { try single.decode(Double.self) }
            note("float") { try single.decode(Float.self) }
            note("string") { try single.decode(String.self) }
            note("url") { try single.decode(URL.self) }
            note("date") { try single.decode(Date.self) }
            note("optional string") { try single.decode(String?.self) as Any }
            note("[double]") { try single.decode([Double].self) }
            note("[string]") { try single.decode([String].self) }
            note("[string: string]") { Self.sorted(try? single.decode([String: String].self)) }
        } catch {
            note("single") { throw error }
        }
    }

    /// A dictionary's members in key order, or nil.
    private static func sorted<Value>(_ dictionary: [String: Value]?) -> String {
        guard let dictionary else { return "threw" }
        return dictionary.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }

    private static func spell(_ path: [any CodingKey]) -> String {
        path.map { key in key.intValue.map { "\(key.stringValue)#\($0)" } ?? key.stringValue }
            .joined(separator: "/")
    }
}

/// A model whose fields are read through the lenient helpers, converting and skipping.
struct LenientProbe: Decodable, Equatable {
    @LosslessValue var id: String
    @LosslessValue var count: Int?
    @LosslessValue var ratio: Double?
    @LosslessValue var flag: Bool?
    @LossyArray var numbers: [Int]
    @LossyArray var names: [String]
    @DefaultValue<Defaults.Zero<Int>> var total: Int
    @DefaultValue<Defaults.EmptyString> var label: String
    @DefaultEmpty var tags: [String]
    @LossyArray var items: [Item]

    struct Item: Decodable, Equatable {
        enum CodingKeys: String, CodingKey {
            case name
            case size = "info.size"
        }
        var name: String
        @LosslessValue var size: Int?
    }
}

/// A model that probes its optional fields with `try?` and `decodeIfPresent`.
struct OptionalProbe: Decodable, Equatable {
    var number: Int?
    var text: String?
    var list: [Int]?
    var nested: [OptionalProbe]?

    enum CodingKeys: String, CodingKey { case number, text, list, nested }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = (try? container.decodeIfPresent(Int.self, forKey: .number)) ?? nil
        text =
            (try? container.decode(String.self, forKey: .text))
            ?? (try? container.decode(String?.self, forKey: .text)) ?? nil
        list = try? container.decode([Int].self, forKey: .list)
        nested = (try? container.decodeIfPresent([OptionalProbe].self, forKey: .nested)) ?? nil
    }
}
