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
    ///
    /// Built for every error the fast path raises, caught ones included (a `try?` probe), so it
    /// costs one allocation: the array, at its final size. A position's `Index 3` is spelled
    /// only when someone reads it (``IndexCodingKey``).
    var codingPath: [any CodingKey] {
        var depth = 0
        var node: CodingPathNode? = self
        while let current = node {
            depth += 1
            node = current.parent
        }
        return [any CodingKey](unsafeUninitializedCapacity: depth) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            var node: CodingPathNode? = self
            var position = depth
            while let current = node {
                position -= 1
                switch current.component {
                case .key(let key): (base + position).initialize(to: AnyCodingKey(key))
                case .index(let index): (base + position).initialize(to: IndexCodingKey(index))
                }
                node = current.parent
            }
            initialized = depth
        }
    }

    /// The coding path of `node`, empty at the top.
    static func codingPath(_ node: CodingPathNode?) -> [any CodingKey] {
        node?.codingPath ?? []
    }
}

/// An array position in a coding path, as `JSONDecoder` spells it: the string `Index 3` and the
/// integer 3. The string is made only when read, so a path built for an error that is caught
/// and dropped costs no text.
struct IndexCodingKey: CodingKey, Sendable {
    /// The position.
    let index: Int

    init(_ index: Int) {
        self.index = index
    }

    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }

    init?(stringValue: String) {
        nil
    }

    init?(intValue: Int) {
        index = intValue
    }
}
