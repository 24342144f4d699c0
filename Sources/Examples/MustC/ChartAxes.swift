import Foundation

/// The time axis of `mustc chart`: the samples' span with a little room on each side, and
/// ticks on round UTC times (seconds to a year apart, as the span needs).
struct TimeAxis {
    let lower: Date
    let upper: Date
    /// The tick times, inside the axis.
    let ticks: [Date]
    private let step: TimeInterval
    private let formatter: DateFormatter
    private let fullFormatter: DateFormatter

    private static let steps: [TimeInterval] = [
        1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 10_800, 21_600, 43_200, 86_400, 172_800,
        604_800, 1_209_600, 2_592_000, 7_776_000, 15_552_000, 31_536_000,
    ]

    /// Creates the axis for the sample times (an hour up to now when there are none).
    init(_ dates: [Date]) {
        var low = dates.min() ?? Date(timeIntervalSinceNow: -3_600)
        var high = dates.max() ?? Date()
        if high.timeIntervalSince(low) < 10 {
            low = low.addingTimeInterval(-5)
            high = high.addingTimeInterval(5)
        }
        let padding = high.timeIntervalSince(low) * 0.04
        lower = low.addingTimeInterval(-padding)
        upper = high.addingTimeInterval(padding)
        let span = upper.timeIntervalSince(lower)
        step = Self.steps.first { span / $0 <= 7 } ?? 31_536_000
        let first = (lower.timeIntervalSince1970 / step).rounded(.up) * step
        ticks = stride(from: first, through: upper.timeIntervalSince1970, by: step).map {
            Date(timeIntervalSince1970: $0)
        }
        let sameDay = Calendar.utc.isDate(lower, inSameDayAs: upper)
        formatter = DateFormatter.utc(
            step >= 86_400 ? "yyyy-MM-dd" : step >= 60 ? (sameDay ? "HH:mm" : "MM-dd HH:mm") : "HH:mm:ss")
        fullFormatter = DateFormatter.utc("yyyy-MM-dd HH:mm:ss")
    }

    /// Where `date` lies, from 0 (lower) to 1 (upper).
    func fraction(_ date: Date) -> Double {
        date.timeIntervalSince(lower) / upper.timeIntervalSince(lower)
    }

    /// A tick's label, as precise as the ticks are apart.
    func label(_ date: Date) -> String { formatter.string(from: date) }

    /// `2026-11-22 09:15:04`, for tooltips.
    func fullLabel(_ date: Date) -> String { fullFormatter.string(from: date) }
}

/// The value axis of `mustc chart`: the samples' range widened to round ticks.
struct ValueAxis {
    let lower: Double
    let upper: Double
    /// The tick values, from lower to upper.
    let ticks: [Double]
    private let decimals: Int

    /// Creates the axis for the sample values (0 to 100 when there are none).
    init(_ values: [Double]) {
        var low = values.min() ?? 0
        var high = values.max() ?? 100
        if high - low < max(abs(high) * 0.02, 0.01) {
            let room = max(abs(high) * 0.05, 1)
            (low, high) = (low - room, high + room)
        }
        let rough = (high - low) / 5
        let magnitude = pow(10, (log10(rough)).rounded(.down))
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
        lower = max(0, (low / step).rounded(.down) * step)
        upper = (high / step).rounded(.up) * step
        ticks = stride(from: lower, through: upper + step / 2, by: step).map { $0 }
        decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : 2
    }

    /// Where `value` lies, from 0 (lower) to 1 (upper).
    func fraction(_ value: Double) -> Double {
        (value - lower) / (upper - lower)
    }

    /// A tick's label, with as many decimals as the ticks need.
    func label(_ value: Double) -> String { String(format: "%.\(decimals)f", value) }
}

extension Calendar {
    /// The Gregorian calendar in UTC.
    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .current
        return calendar
    }
}

extension DateFormatter {
    /// A fixed-format formatter in UTC.
    static func utc(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = format
        return formatter
    }
}
