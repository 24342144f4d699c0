/// Renders coding paths the way people write them: `items[3].volumeInfo.title`.
enum CodingPathFormatter {
    /// The readable form of `codingPath`.
    static func string(_ codingPath: [any CodingKey]) -> String {
        var result = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue == String(index) || key.stringValue.hasPrefix("Index ") {
                result += "[\(index)]"
            } else if key.stringValue.hasPrefix("[") {
                result += key.stringValue
            } else {
                if !result.isEmpty { result += "." }
                result += key.stringValue
            }
        }
        return result
    }
}
