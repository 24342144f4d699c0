import Foundation

/// Text and numbers written into the example programs' SVG files.
public enum SVGText {
    /// Text made safe for SVG element content and attribute values: the five XML
    /// entities escaped, and the control characters XML 1.0 forbids (even escaped) dropped.
    ///
    /// - Parameter text: any text, such as a photo title from the network.
    /// - Returns: the escaped text.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default:
                if let scalar = character.unicodeScalars.first, scalar.value < 0x20,
                    !["\t", "\n", "\r"].contains(character)
                {
                    continue
                }
                escaped.append(character)
            }
        }
        return escaped
    }

    /// A number for an attribute: at most two decimals, no exponent, no `-0`.
    ///
    /// - Parameter value: a coordinate or length.
    /// - Returns: `12`, `12.5` or `12.25`.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
