import ExampleSupport
import Foundation

/// Durations written the way people write them: `500ms`, `30s`, `5m`, `1h`, `1.5s`.
enum IntervalText {
    private static let units: [(suffix: String, seconds: Double)] = [
        ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600),
    ]

    /// Reads a duration.
    ///
    /// - Parameters:
    ///   - text: the text, such as `30s`.
    ///   - option: the option it came from, for the message.
    /// - Returns: the duration, at least one millisecond.
    /// - Throws: `UsageError` when the text is not a positive number followed by `ms`, `s`, `m` or `h`.
    static func parse(_ text: String, option: String) throws(UsageError) -> Duration {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        let unit = trimmed.dropFirst(digits.count)
        guard let scale = units.first(where: { $0.suffix == unit })?.seconds, let number = Double(digits),
            number.isFinite, number > 0, number * scale >= 0.001, number * scale <= 366 * 24 * 3600
        else {
            throw UsageError(
                "\(option) needs a duration from 1ms to a year, not '\(text)'",
                fix: "write a number and a unit, such as 500ms, 30s, 5m or 1h")
        }
        return .milliseconds(Int64((number * scale * 1000).rounded()))
    }

    /// A duration as people write it: `500ms`, `30s`, `5m`, `1h`, or `90.5s`.
    static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds % 3_600_000 == 0 { return "\(milliseconds / 3_600_000)h" }
        if milliseconds % 60_000 == 0 { return "\(milliseconds / 60_000)m" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        return "\(Double(milliseconds) / 1000)s"
    }
}
