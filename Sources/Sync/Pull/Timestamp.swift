import Decoding
import Foundation

/// Text timestamps in the formats APIs use for `updated` (`2026-11-24 09:59:14.909Z`, ISO 8601
/// with a `T`), moved by a keyset overlap. Read by Decoding's `PartialDate`, the package's one
/// ISO 8601 reader; written back in the shape they came in.
enum Timestamp {
    /// `text` moved by `seconds`, written in the same shape (its separator, its number of
    /// fraction digits, its `Z` or none), or `nil` when it is not a timestamp of that shape in UTC.
    static func shift(_ text: String, by seconds: Double) -> String? {
        guard let parsed = try? PartialDate(text), parsed.precision == .instant else { return nil }
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[16] == UInt8(ascii: ":") else { return nil }
        // The shape: fraction digits after the seconds, then `Z` or nothing (an offset is not kept).
        var index = 19
        var fractionDigits = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                fractionDigits += 1
                index += 1
            }
        }
        let suffix = String(decoding: bytes[index...], as: UTF8.self)
        guard suffix.isEmpty || suffix == "Z" else { return nil }
        let shifted = parsed.date.timeIntervalSince1970 + seconds
        let whole = floor(shifted)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: whole))
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        var result = String(format: "%04d", parts.year ?? 0) + "-" + two(parts.month) + "-" + two(parts.day)
        result += (bytes[10] == UInt8(ascii: "T") ? "T" : " ") + two(parts.hour) + ":" + two(parts.minute) + ":"
            + two(parts.second)
        if fractionDigits > 0 {
            let scaled = Int(((shifted - whole) * pow(10, Double(fractionDigits))).rounded(.down))
            result += "." + String(format: "%0\(fractionDigits)d", scaled)
        }
        return result + suffix
    }
}
