import Foundation

/// Parses the `Retry-After` header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
enum RetryAfter {
    /// The wait the header asks for, or `nil` when it is missing or unreadable. A date in the past means no wait.
    static func delay(from value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            guard value.count <= 9, let seconds = Int(value) else { return nil }
            return .seconds(seconds)
        }
        guard let date = parseHTTPDate(value) else { return nil }
        return .interval(date.timeIntervalSince(now))
    }

    /// The three HTTP-date forms: IMF-fixdate, obsolete RFC 850, and asctime.
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",
        "EEEE, dd-MMM-yy HH:mm:ss zzz",
        "EEE MMM d HH:mm:ss yyyy",
    ]

    static func parseHTTPDate(_ text: String) -> Date? {
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

}
