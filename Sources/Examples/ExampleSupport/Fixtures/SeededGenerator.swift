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

/// The number of days in a month of the Gregorian calendar.
///
/// - Parameters:
///   - month: the month, 1 to 12.
///   - year: the year (for February in leap years).
/// - Returns: 28 to 31.
func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
}
