import Foundation
import SeededRandom

/// The fixtures' draws from the shared SplitMix64 generator (so the offline data is the same
/// on every machine and every run unless a run asks for drift).
extension SeededGenerator {
    /// Picks one element of a non-empty array.
    mutating func pick<T>(_ values: [T]) -> T {
        values[Int.random(in: 0..<values.count, using: &self)]
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < p
    }
}
