/// One step of a coding path, linked to the steps before it, so that a nested value's coding
/// path costs one small object and the array of keys is made only when someone reads it.
final class CodingPathNode {
    /// One step: an object's key or an array's position.
    enum Component {
        case key(String)
        case index(Int)
    }

    /// The steps before this one; nil at the top.
    let parent: CodingPathNode?
    /// This step.
    let component: Component

    init(parent: CodingPathNode?, component: Component) {
        self.parent = parent
        self.component = component
    }

    /// The keys from the top to this step, spelled as `JSONDecoder` spells them: a key as
    /// itself, a position as `Index 3` with the integer value 3.
    var codingPath: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node: CodingPathNode? = self
        while let current = node {
            switch current.component {
            case .key(let key): keys.append(AnyCodingKey(key))
            case .index(let index): keys.append(Self.indexKey(index))
            }
            node = current.parent
        }
        return keys.reversed()
    }

    /// The key of array position `index`, as `JSONDecoder` spells it: `Index 3`, with the
    /// integer value 3.
    static func indexKey(_ index: Int) -> AnyCodingKey {
        var key = AnyCodingKey("Index \(index)")
        key.intValue = index
        return key
    }

    /// The coding path of `node`, empty at the top.
    static func codingPath(_ node: CodingPathNode?) -> [any CodingKey] {
        node?.codingPath ?? []
    }
}
