import Foundation
import Locking

/// What one coding key type's keys mean, resolved once per type and shared by every
/// container of that type: whether its keys are read as paths, and each key string's
/// parsed path (or that it is a plain key).
///
/// A path-keyed container used to look each key up in ``PathCache`` (a lock and a hash of
/// the key) and to test its key type's conformances (a dynamic cast) every time a
/// container was made: for a 40-item page that is hundreds of lookups and casts for the
/// same seven keys. A plan is fetched once per container, and a key is then found by
/// comparing the two words of its string with a handful of entries.
///
/// A plan is immutable; a key seen for the first time makes a new plan with one more entry
/// that replaces the old one in the registry, so readers never need a lock.
final class KeyPlan: Sendable {
    /// How one key string reads.
    enum Lookup: Sendable {
        case plain(AnyCodingKey)
        case path(PathExpression)
        case invalid(PathSyntaxError)
    }

    struct Entry: Sendable {
        let identity: StringIdentity
        /// Keeps the key's string alive, so its identity cannot be reused by another string.
        let text: String
        let lookup: Lookup
    }

    /// Entries beyond this are not remembered (keys made at run time would grow the plan
    /// forever); such keys are resolved through ``PathCache`` every time, as before.
    static let maximumEntries = 32

    let readsPaths: Bool
    let entries: [Entry]
    /// Whether a container of this key type may read a path: its keys are read as paths, and
    /// either none is known yet or a known one is a path. A container keeps the objects its
    /// paths reach (a ``NavigationCache``) only then.
    let mayReadPaths: Bool

    init(readsPaths: Bool, entries: [Entry]) {
        self.readsPaths = readsPaths
        self.entries = entries
        self.mayReadPaths =
            readsPaths
            && (entries.isEmpty
                || entries.contains { entry in
                    if case .plain = entry.lookup { false } else { true }
                })
    }

    /// The plan of `Key`, made and registered on first use.
    @inline(__always)
    static func of<Key: CodingKey>(_ type: Key.Type) -> KeyPlan {
        KeyPlanRegistry.shared.plan(for: type)
    }

    /// How `string`, a key of this plan's type, reads.
    @inline(__always)
    func lookup<Key: CodingKey>(_ string: String, keyType: Key.Type) -> Lookup {
        let identity = StringIdentity(string)
        // Index through the buffer so that only the matching entry's lookup is copied (and retained).
        let found = entries.withUnsafeBufferPointer { buffer -> Lookup? in
            var index = 0
            while index < buffer.count {
                if buffer[index].identity == identity && buffer[index].text == string { return buffer[index].lookup }
                index += 1
            }
            return nil
        }
        if let found { return found }
        return KeyPlanRegistry.shared.resolve(string, identity: identity, keyType: keyType, readsPaths: readsPaths)
    }
}

/// The plans of every key type seen so far.
final class KeyPlanRegistry: Sendable {
    static let shared = KeyPlanRegistry()

    private let plans = Locked([ObjectIdentifier: KeyPlan]())

    func plan<Key: CodingKey>(for type: Key.Type) -> KeyPlan {
        let id = ObjectIdentifier(type)
        if let plan = plans.withLock({ $0[id] }) { return plan }
        // Made outside the lock: deciding whether keys are paths may decode a probe.
        let plan = KeyPlan(readsPaths: keysArePaths(type), entries: [])
        return plans.withLock { plans in
            if let existing = plans[id] { return existing }
            plans[id] = plan
            return plan
        }
    }

    /// Resolves a key the plan does not know yet, and remembers it in a new plan.
    func resolve<Key: CodingKey>(
        _ string: String, identity: StringIdentity, keyType: Key.Type, readsPaths: Bool
    ) -> KeyPlan.Lookup {
        let lookup: KeyPlan.Lookup
        if !readsPaths || PathExpression.isPlainKey(string) {
            lookup = .plain(AnyCodingKey(string))
        } else {
            switch PathCache.shared.expression(for: string) {
            case .success(let path): lookup = .path(path)
            case .failure(let error): lookup = .invalid(error)
            }
        }
        let id = ObjectIdentifier(keyType)
        plans.withLock { plans in
            let current = plans[id] ?? KeyPlan(readsPaths: readsPaths, entries: [])
            guard current.entries.count < KeyPlan.maximumEntries,
                !current.entries.contains(where: { $0.identity == identity && $0.text == string })
            else { return }
            plans[id] = KeyPlan(
                readsPaths: current.readsPaths,
                entries: current.entries + [KeyPlan.Entry(identity: identity, text: string, lookup: lookup)])
        }
        return lookup
    }
}
