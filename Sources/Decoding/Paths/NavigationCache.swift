import Foundation

/// A place inside JSON that a path step can continue from.
enum PathNode {
    case object(ObjectNode)
    case array(any UnkeyedDecodingContainer)
}

/// An object reached on a path.
///
/// A class, so that nodes and cache slots holding one have a layout the compiler knows:
/// `KeyedDecodingContainer` is a resilient type, so an enum or optional holding it inline is
/// switched on and copied through the runtime (`swift_getEnumCaseMultiPayload` and value
/// witnesses), and an `indirect` case looks its box's metadata up on every allocation.
final class ObjectNode {
    let container: KeyedDecodingContainer<AnyCodingKey>

    init(_ container: KeyedDecodingContainer<AnyCodingKey>) {
        self.container = container
    }
}

/// The objects a container has already reached by path prefix, so that properties sharing a
/// prefix (`volumeInfo.title`, `volumeInfo.publisher`) walk it once.
///
/// One cache belongs to one container of one value and is used from the thread that decodes
/// that value; it is never shared.
final class NavigationCache {
    // Four inline slots cover the usual handful of distinct prefixes without allocating arrays.
    private var count = 0
    private var id0 = -1
    private var id1 = -1
    private var id2 = -1
    private var id3 = -1
    private var container0: ObjectNode?
    private var container1: ObjectNode?
    private var container2: ObjectNode?
    private var container3: ObjectNode?
    private var overflow: [(id: Int, container: ObjectNode?)] = []

    init() {}

    /// The deepest cached prefix of `path` strictly above step `limit`.
    @inline(__always)
    func deepest(
        _ path: PathExpression, below limit: Int
    ) -> (index: Int, container: ObjectNode?)? {
        guard count > 0 else { return nil }
        var index = limit - 1
        while index >= 0 {
            let id = path.prefixIDs[index]
            if id == id0 { return (index, container0) }
            if id == id1 { return (index, container1) }
            if id == id2 { return (index, container2) }
            if id == id3 { return (index, container3) }
            if count > 4, let entry = overflow.first(where: { $0.id == id }) { return (index, entry.container) }
            index -= 1
        }
        return nil
    }

    /// The object cached for steps `0...step` of `path`, if one is (a cached miss gives nil too).
    @inline(__always)
    func object(at step: Int, of path: PathExpression) -> ObjectNode? {
        guard count > 0, step >= 0 else { return nil }
        let id = path.prefixIDs[step]
        if id == id0 { return container0 }
        if id == id1 { return container1 }
        if id == id2 { return container2 }
        if id == id3 { return container3 }
        if count > 4, let entry = overflow.first(where: { $0.id == id }) { return entry.container }
        return nil
    }

    func store(_ path: PathExpression, _ step: Int, _ container: ObjectNode?) {
        let id = path.prefixIDs[step]
        switch count {
        case 0: (id0, container0) = (id, container)
        case 1: (id1, container1) = (id, container)
        case 2: (id2, container2) = (id, container)
        case 3: (id3, container3) = (id, container)
        default: overflow.append((id, container))
        }
        count += 1
    }
}

/// A Decodable that decodes nothing, used to step over array elements.
struct SkippedValue: Decodable {
    init(from decoder: any Decoder) throws {}
}
