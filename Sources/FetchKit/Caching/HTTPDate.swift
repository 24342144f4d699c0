import Foundation

/// Parses and formats HTTP dates exactly as RFC 9110 §5.6.7 defines them: the preferred
/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete forms a recipient
/// must accept, RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
/// (`Sun Nov  6 08:49:37 1994`).
///
/// Anything else is not a date: another zone name (`UTC`), a missing comma, doubled spaces,
/// dashes in an IMF-fixdate, dots in the time, a one-digit hour or a two-digit year where four
/// are due. Names of days, months and `GMT` are matched without regard to case. The weekday is
/// checked to be a day name, not to match the date.
enum HTTPDate {
    private static let shortDays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date in `text` (leading and trailing blanks aside), or `nil` when it is not an HTTP date.
    static func parse(_ text: String) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        return imfFixdate(text) ?? rfc850(text) ?? asctime(text)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`: always four digits of year, so the text parses back to
    /// the same second. A date before year 0 or after 9999, which an HTTP date cannot write, is
    /// written as the first or the last second it can.
    static func format(_ date: Date) -> String {
        let first = daysFromCivil(year: 0, month: 1, day: 1) * 86_400
        let last = daysFromCivil(year: 9999, month: 12, day: 31) * 86_400 + 86_399
        let interval = date.timeIntervalSince1970
        let seconds = interval.isNaN ? 0 : Int(max(Double(first), min(Double(last), interval.rounded(.down))))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        // 1970-01-01 was a Thursday (index 3 of `shortDays`).
        let weekday = ((days % 7) + 7 + 3) % 7
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        func four(_ value: Int) -> String { String(repeating: "0", count: max(0, 4 - "\(value)".count)) + "\(value)" }
        let dayName = shortDays[weekday].capitalized
        let monthName = months[month - 1].capitalized
        return
            "\(dayName), \(two(day)) \(monthName) \(four(year)) \(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60)) GMT"
    }

    private static func imfFixdate(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","),
            shortDays.contains(parts[0].dropLast().lowercased()), parts[5].lowercased() == "gmt",
            parts[1].count == 2, let day = number(parts[1]), let month = month(parts[2]),
            parts[3].count == 4, let year = number(parts[3])
        else { return nil }
        return date(year: year, month: month, day: day, time: parts[4])
    }

    private static func rfc850(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].hasSuffix(","), longDays.contains(parts[0].dropLast().lowercased()),
            parts[3].lowercased() == "gmt"
        else { return nil }
        let dateParts = parts[1].split(separator: "-", omittingEmptySubsequences: false)
        guard dateParts.count == 3, dateParts[0].count == 2, let day = number(dateParts[0]),
            let month = month(dateParts[1]), dateParts[2].count == 2, let shortYear = number(dateParts[2])
        else { return nil }
        // A two-digit year more than 50 years in the future is the most recent past year
        // with the same last two digits (RFC 9110 §5.6.7).
        let thisYear = civil(fromDays: Int(Date().timeIntervalSince1970) / 86_400).year
        var year = thisYear - thisYear % 100 + shortYear
        if year > thisYear + 50 { year -= 100 }
        return date(year: year, month: month, day: day, time: parts[2])
    }

    private static func asctime(_ text: String) -> Date? {
        // `Sun Nov  6 08:49:37 1994`: a one-digit day is padded with a space.
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        let fields: [Substring]
        if parts.count == 6, parts[2].isEmpty, parts[3].count == 1 {
            fields = [parts[0], parts[1], parts[3], parts[4], parts[5]]
        } else if parts.count == 5, parts[2].count == 2 {
            fields = Array(parts)
        } else {
            return nil
        }
        guard shortDays.contains(fields[0].lowercased()), let month = month(fields[1]), let day = number(fields[2]),
            fields[4].count == 4, let year = number(fields[4])
        else { return nil }
        return date(year: year, month: month, day: day, time: fields[3])
    }

    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(text)
    }

    private static func month(_ text: Substring) -> Int? {
        guard text.count == 3, let index = months.firstIndex(of: text.lowercased()) else { return nil }
        return index + 1
    }

    /// The date of `year-month-day` at `time` (`HH:MM:SS`, two digits each), UTC.
    private static func date(year: Int, month: Int, day: Int, time: Substring) -> Date? {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }), let hour = number(clock[0]),
            let minute = number(clock[1]), let second = number(clock[2]), hour < 24, minute < 60, second <= 60,
            day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
