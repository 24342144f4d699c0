import Foundation

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
