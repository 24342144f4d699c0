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
        guard let date = HTTPDate.parse(value) else { return nil }
        return .interval(date.timeIntervalSince(now))
    }
}
