import Foundation

/// What changed between two deliveries of an observed query's results.
///
/// Indexes follow `UITableView`/`NSFetchedResultsController` batch-update conventions:
/// ``deleted`` index the previous results, ``inserted`` and ``updated`` index the new ones,
/// and each ``Move`` goes from a previous index to a new index.
public struct ChangeSet: Sendable, Hashable {
    /// A row that stayed in the results but changed position.
    public struct Move: Sendable, Hashable {
        /// Its index in the previous results.
        public let from: Int
        /// Its index in the new results.
        public let to: Int

        /// Creates a move.
        ///
        /// - Parameters:
        ///   - from: the index in the previous results.
        ///   - to: the index in the new results.
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Indexes (in the new results) of rows that entered the results.
    public var inserted: [Int]
    /// Indexes (in the previous results) of rows that left the results.
    public var deleted: [Int]
    /// Indexes (in the new results) of rows whose stored values changed.
    public var updated: [Int]
    /// Rows that changed position relative to the others.
    public var moved: [Move]

    /// Creates a change set.
    ///
    /// - Parameters:
    ///   - inserted: indexes in the new results.
    ///   - deleted: indexes in the previous results.
    ///   - updated: indexes in the new results.
    ///   - moved: moves from previous to new indexes.
    public init(inserted: [Int] = [], deleted: [Int] = [], updated: [Int] = [], moved: [Move] = []) {
        self.inserted = inserted
        self.deleted = deleted
        self.updated = updated
        self.moved = moved
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && updated.isEmpty && moved.isEmpty }

    /// Computes the changes between two result lists, matching rows by identity.
    ///
    /// Observers call this from code generic over the entity, which the compiler cannot
    /// specialize for the caller's identity type: hashing then goes through witness tables for
    /// every row. The common identity types are handed to a specialized copy instead.
    static func diff<ID: Hashable>(
        old oldIDs: [ID], oldRows: [[DatabaseValue]], new newIDs: [ID], newRows: [[DatabaseValue]]
    ) -> ChangeSet {
        // `ID` is the named type in each branch, so the casts are of an array to its own type.
        if ID.self == Int.self {
            return diffing(
                old: unsafeBitCast(oldIDs, to: [Int].self), oldRows: oldRows,
                new: unsafeBitCast(newIDs, to: [Int].self), newRows: newRows)
        }
        if ID.self == Int64.self {
            return diffing(
                old: unsafeBitCast(oldIDs, to: [Int64].self), oldRows: oldRows,
                new: unsafeBitCast(newIDs, to: [Int64].self), newRows: newRows)
        }
        if ID.self == String.self {
            return diffing(
                old: unsafeBitCast(oldIDs, to: [String].self), oldRows: oldRows,
                new: unsafeBitCast(newIDs, to: [String].self), newRows: newRows)
        }
        if ID.self == UUID.self {
            return diffing(
                old: unsafeBitCast(oldIDs, to: [UUID].self), oldRows: oldRows,
                new: unsafeBitCast(newIDs, to: [UUID].self), newRows: newRows)
        }
        return diffing(old: oldIDs, oldRows: oldRows, new: newIDs, newRows: newRows)
    }

    private static func diffing<ID: Hashable>(
        old oldIDs: [ID], oldRows: [[DatabaseValue]], new newIDs: [ID], newRows: [[DatabaseValue]]
    ) -> ChangeSet {
        var oldIndex: [ID: Int] = [:]
        for (offset, id) in oldIDs.enumerated() { oldIndex[id] = offset }
        var newIndex: [ID: Int] = [:]
        for (offset, id) in newIDs.enumerated() { newIndex[id] = offset }
        var changes = ChangeSet()
        changes.deleted = oldIDs.indices.filter { newIndex[oldIDs[$0]] == nil }
        var common: [(old: Int, new: Int)] = []
        for (offset, id) in newIDs.enumerated() {
            if let old = oldIndex[id] {
                common.append((old, offset))
                if oldRows[old] != newRows[offset] { changes.updated.append(offset) }
            } else {
                changes.inserted.append(offset)
            }
        }
        // Rows on the longest increasing run of old positions kept their relative order; the rest moved.
        let stays = longestIncreasing(common.map(\.old))
        for (position, pair) in common.enumerated() where !stays[position] {
            changes.moved.append(Move(from: pair.old, to: pair.new))
        }
        return changes
    }

    /// Marks the positions of one longest strictly increasing subsequence of `values`.
    ///
    /// Patience sorting; a value above every pile's top extends the longest run without a binary
    /// search, so a nearly sorted sequence (results after a few changed rows) takes linear time.
    /// The incremental observation path relies on this choosing exactly the run a full diff chooses.
    static func longestIncreasing(_ values: [Int]) -> [Bool] {
        let count = values.count
        var result = [Bool](repeating: false, count: count)
        guard count > 0 else { return result }
        let tails = UnsafeMutableBufferPointer<Int>.allocate(capacity: count)  // positions
        let previous = UnsafeMutableBufferPointer<Int>.allocate(capacity: count)
        defer {
            tails.deallocate()
            previous.deallocate()
        }
        var length = 0
        values.withUnsafeBufferPointer { values in
            for position in 0..<count {
                let value = values[position]
                var low: Int
                if length > 0, values[tails[length - 1]] < value {
                    low = length
                } else {
                    low = 0
                    var high = length
                    while low < high {
                        let mid = (low + high) / 2
                        if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
                    }
                }
                previous[position] = low > 0 ? tails[low - 1] : -1
                tails[low] = position
                if low == length { length += 1 }
            }
        }
        var cursor = tails[length - 1]
        while cursor >= 0 {
            result[cursor] = true
            cursor = previous[cursor]
        }
        return result
    }
}
