public import Foundation

/// A date that may be only a year, a year and month, a day, or a full ISO 8601 timestamp.
///
/// Google Books gives `publishedDate` as `"1862"`, `"2016-10"` or `"2016-10-14"`; other APIs
/// give `"2016-10-14T09:30:00Z"`. `PartialDate` decodes all of them from a string, keeps
/// the precision, and encodes back to the same form.
///
/// ```swift
/// let date = try PartialDate("2016-10")
/// date.year       // 2016
/// date.month      // 10
/// date.day        // nil
/// date.precision  // .month
/// ```
public struct PartialDate: Codable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// How much of the date is known.
    public enum Precision: Int, Sendable, Hashable, Comparable {
        /// Only the year.
        case year
        /// The year and month.
        case month
        /// The calendar day.
        case day
        /// An instant, with time of day and offset.
        case instant

        /// Orders from least to most precise.
        ///
        /// - Parameters:
        ///   - lhs: a precision.
        ///   - rhs: another precision.
        /// - Returns: whether `lhs` is less precise than `rhs`.
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The year, such as `1862`.
    public let year: Int
    /// The month, 1 to 12, when known.
    public let month: Int?
    /// The day of the month, when known.
    public let day: Int?
    /// How much is known.
    public let precision: Precision
    /// The start of the period in UTC (midnight on January 1 for a year), or the instant itself.
    public let date: Date
    /// The text the date was read from, or its canonical form.
    public let text: String

    /// Parses a partial or full ISO 8601 date.
    ///
    /// Accepted forms: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, and `YYYY-MM-DDTHH:MM[:SS[.fff]]`
    /// followed by `Z` or an offset `±HH:MM` (a time without an offset is read as UTC).
    ///
    /// - Parameter text: the text.
    /// - Throws: ``DecodingFailure`` with code ``DecodingFailure/Code/invalidValue`` when the text is not such a date.
    public init(_ text: String) throws(DecodingFailure) {
        guard let parsed = Self.parse(text) else {
            throw DecodingFailure(
                path: "", message: "expected a date such as 1862, 2016-10 or 2016-10-14, found \"\(text)\"",
                underlying: nil, code: .invalidValue)
        }
        self = parsed
    }

    private init(year: Int, month: Int?, day: Int?, precision: Precision, date: Date, text: String) {
        self.year = year
        self.month = month
        self.day = day
        self.precision = precision
        self.date = date
        self.text = text
    }

    /// Decodes the date from a string.
    ///
    /// - Parameter decoder: the decoder to read from.
    /// - Throws: `DecodingError.dataCorrupted` when the string is not a date.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let parsed = Self.parse(text) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected a date such as 1862, 2016-10 or 2016-10-14, found \"\(text)\""))
        }
        self = parsed
    }

    /// Encodes the date as the text it was read from.
    ///
    /// - Parameter encoder: the encoder to write to.
    /// - Throws: `EncodingError` from the encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// The text form, such as `2016-10`.
    public var description: String { text }

    /// Orders by start date, then by precision.
    ///
    /// - Parameters:
    ///   - lhs: a date.
    ///   - rhs: another date.
    /// - Returns: whether `lhs` comes first.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.date, lhs.precision) < (rhs.date, rhs.precision)
    }

    /// Two dates are equal when they name the same period at the same precision.
    ///
    /// - Parameters:
    ///   - lhs: a date.
    ///   - rhs: another date.
    /// - Returns: whether they are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.date == rhs.date && lhs.precision == rhs.precision
    }

    /// Hashes the period and precision.
    ///
    /// - Parameter hasher: the hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(date)
        hasher.combine(precision)
    }

    // MARK: Parsing

    private static func parse(_ text: String) -> PartialDate? {
        let bytes = Array(text.utf8)
        var position = 0

        func number(_ digits: Int) -> Int? {
            guard position + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<(position + digits)] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            position += digits
            return value
        }
        func accept(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        guard let year = number(4) else { return nil }
        if position == bytes.count {
            return PartialDate(
                year: year, month: nil, day: nil, precision: .year, date: start(year, 1, 1), text: text)
        }
        guard accept(0x2D), let month = number(2), (1...12).contains(month) else { return nil }
        if position == bytes.count {
            return PartialDate(
                year: year, month: month, day: nil, precision: .month, date: start(year, month, 1), text: text)
        }
        guard accept(0x2D), let day = number(2), day >= 1, day <= daysIn(year, month) else { return nil }
        if position == bytes.count {
            return PartialDate(
                year: year, month: month, day: day, precision: .day, date: start(year, month, day), text: text)
        }
        guard accept(0x54) || accept(0x74) || accept(0x20), let hour = number(2), hour < 24, accept(0x3A),
            let minute = number(2), minute < 60
        else { return nil }
        var seconds = 0.0
        if accept(0x3A) {
            guard let whole = number(2), whole <= 60 else { return nil }
            seconds = Double(whole)
            if accept(0x2E) || accept(0x2C) {
                var scale = 0.1
                var digits = 0
                while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                    seconds += Double(bytes[position] - 0x30) * scale
                    scale /= 10
                    position += 1
                    digits += 1
                }
                guard digits > 0 else { return nil }
            }
        }
        var offset = 0
        if accept(0x5A) || accept(0x7A) {
            offset = 0
        } else if position < bytes.count, bytes[position] == 0x2B || bytes[position] == 0x2D {
            let sign = bytes[position] == 0x2D ? -1 : 1
            position += 1
            guard let hours = number(2), hours < 24 else { return nil }
            _ = accept(0x3A)
            guard let minutes = number(2), minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard position == bytes.count else { return nil }
        let instant = start(year, month, day).addingTimeInterval(
            Double(hour * 3600 + minute * 60) + seconds - Double(offset))
        return PartialDate(year: year, month: month, day: day, precision: .instant, date: instant, text: text)
    }

    private static func daysIn(_ year: Int, _ month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Midnight UTC at the start of the given day (proleptic Gregorian calendar).
    private static func start(_ year: Int, _ month: Int, _ day: Int) -> Date {
        // Days from 1970-01-01, by Howard Hinnant's days_from_civil.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: Double(days) * 86_400)
    }
}
