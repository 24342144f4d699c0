import Foundation

@testable import Decoding

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
        case .string: return (try? session.string(at: index, nil, nil)).map(JSONValue.string)
        case .number: return (try? session.double(at: index, nil, nil)).map(JSONValue.number)
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
        return bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(FastDeferral) in try JSONParser.parse(buffer) }.map { nodes in
                let session = FastDecodingSession(bytes: buffer, nodes: nodes, userInfo: [:], datesAreDeferred: true)
                return value(at: 0, in: session)
            }
        }
    }
}
