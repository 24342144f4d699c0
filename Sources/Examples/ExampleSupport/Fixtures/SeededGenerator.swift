import Foundation

/// A small deterministic random number generator (SplitMix64), so the offline fixtures are
/// the same on every machine and every run unless a run asks for drift.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    ///
    /// - Parameter seed: any value; equal seeds give equal sequences.
    public init(seed: UInt64) {
        state = seed
    }

    /// Returns the next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Picks one element of a non-empty array.
    mutating func pick<T>(_ values: [T]) -> T {
        values[Int.random(in: 0..<values.count, using: &self)]
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < p
    }
}

/// Folds a string for matching: lower case, no diacritics, so `amelie` finds `Amélie`.
func folded(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
}

/// The words of a query, folded, split on anything that is not a letter or digit.
func queryWords(_ query: String) -> [String] {
    folded(query).split { !$0.isLetter && !$0.isNumber }.map(String.init)
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
