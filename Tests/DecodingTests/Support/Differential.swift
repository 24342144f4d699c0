import Foundation
import Testing

@testable import Decoding

/// Decodes the same data both ways (the fast path first, and `JSONDecoder` with the path-aware
/// wrapper only) and checks the soundness rule: when the fast path returns a value it is the
/// other path's value, and ``PathDecoder`` returns what the other path returns, value or error.
enum Differential {
    /// What the fast path did with one input.
    enum FastOutcome: Equatable {
        case decoded
        case deferred(FastDeferral.Reason)
    }

    /// Decodes `data` as `type` (at `path`, when given) both ways and compares.
    ///
    /// - Returns: whether the fast path returned a value, or why it deferred.
    @discardableResult
    static func compare<T: Decodable & Equatable>(
        _ type: T.Type, _ data: Data, at path: String? = nil, decoder: PathDecoder = PathDecoder(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> FastOutcome {
        var foundation = decoder
        foundation.route = .foundationOnly
        var automatic = decoder
        automatic.route = .automatic
        let expected = Result { () throws(DecodingFailure) in try decode(type, data, at: path, with: foundation) }
        let actual = Result { () throws(DecodingFailure) in try decode(type, data, at: path, with: automatic) }
        let fast = decoder.decodeOnFastPath(type, from: data, at: path.flatMap { try? PathExpression(parsing: $0) })
        switch (expected, actual) {
        case (.success(let want), .success(let got)):
            #expect(got == want, sourceLocation: sourceLocation)
        case (.failure(let want), .failure(let got)):
            #expect(got.description == want.description, sourceLocation: sourceLocation)
            #expect(got.code == want.code, sourceLocation: sourceLocation)
            #expect(got.path == want.path, sourceLocation: sourceLocation)
        default:
            Issue.record("the two ways disagree: \(actual) against \(expected)", sourceLocation: sourceLocation)
        }
        switch fast {
        case .success(let value):
            guard case .success(let want) = expected else {
                Issue.record(
                    "the fast path returned a value where the other path throws", sourceLocation: sourceLocation)
                return .decoded
            }
            #expect(value == want, sourceLocation: sourceLocation)
            return .decoded
        case .failure(let deferral):
            return .deferred(deferral.reason)
        }
    }

    private static func decode<T: Decodable>(
        _ type: T.Type, _ data: Data, at path: String?, with decoder: PathDecoder
    ) throws(DecodingFailure) -> T {
        if let path { return try decoder.decode(type, from: data, at: path) }
        return try decoder.decode(type, from: data)
    }
}

/// Any JSON value, decoded by probing each kind in turn (`try?`), as apps decode untyped JSON.
indirect enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var members: [String: JSONValue] = [:]
            for key in container.allKeys {
                members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
            self = .object(members)
        } else if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !container.isAtEnd { elements.append(try container.decode(JSONValue.self)) }
            self = .array(elements)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let string = try? container.decode(String.self) {
                self = .string(string)
            } else {
                self = .number(try container.decode(Double.self))
            }
        }
    }
}

/// Any JSON value read from the fast path's own nodes, with its scalar conversions: the
/// corpus tests compare it with ``JSONValue`` decoded through `JSONDecoder`.
enum NodeTree {
    /// The value at `index`, or nil when a conversion defers.
    static func value(at index: Int, in session: FastDecodingSession) -> JSONValue? {
        let node = session.nodes[index]
        switch node.kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .string: return (try? session.string(at: index)).map(JSONValue.string)
        case .number: return (try? session.double(at: index)).map(JSONValue.number)
        case .array:
            var elements: [JSONValue] = []
            var child = index + 1
            for _ in 0..<Int(node.length) {
                guard let element = value(at: child, in: session) else { return nil }
                elements.append(element)
                child = Int(session.nodes[child].next)
            }
            return .array(elements)
        case .object:
            var members: [String: JSONValue] = [:]
            let keys = session.keys(of: index)
            var child = index + 1
            for key in keys {
                guard let member = value(at: child + 1, in: session) else { return nil }
                members[key] = member
                child = Int(session.nodes[child + 1].next)
            }
            return .object(members)
        }
    }

    /// The whole text read by the fast path, or why it defers.
    static func parse(_ data: Data) -> Result<JSONValue?, FastDeferral> {
        let bytes = [UInt8](data)
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(FastDeferral) in try JSONParser.parse(buffer) }
        }
        return parsed.map { nodes in
            let session = FastDecodingSession(bytes: bytes, nodes: nodes, userInfo: [:], datesAreDeferred: true)
            return value(at: 0, in: session)
        }
    }
}
