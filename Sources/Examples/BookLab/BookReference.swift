import ExampleSupport

/// How a command names a library book: by its number in `booklab list`, by ISBN (13 digits, or
/// 10 which are converted), or by Google Books volume id.
enum BookReference: Sendable, Equatable {
    case number(Int)
    case isbn(String)
    case volumeID(String)

    /// Reads a reference from a command-line word.
    ///
    /// - Parameter text: `3`, `978-1-4987-6542-8`, `1498765424` or `jauKDQAAQBAJ`.
    init(_ text: String) {
        if let isbn = Self.isbn13(text) {
            self = .isbn(isbn)
        } else if let number = Int(text) {
            self = .number(number)
        } else {
            self = .volumeID(text)
        }
    }

    /// The ISBN-13 written by `text` (hyphens and spaces ignored; an ISBN-10 is converted), or nil.
    ///
    /// - Parameter text: the word.
    /// - Returns: 13 digits, or nil when `text` is not an ISBN.
    static func isbn13(_ text: String) -> String? {
        let compact = text.filter { $0 != "-" && $0 != " " }.uppercased()
        if compact.count == 13, compact.allSatisfy(\.isASCII), compact.allSatisfy(\.isNumber) { return compact }
        guard compact.count == 10, compact.allSatisfy(\.isASCII),
            compact.dropLast().allSatisfy(\.isNumber), compact.last?.isNumber == true || compact.last == "X"
        else { return nil }
        let core = [9, 7, 8] + compact.prefix(9).compactMap(\.wholeNumberValue)
        let sum = core.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        return core.map(String.init).joined() + String((10 - sum % 10) % 10)
    }

    /// The reference as a person wrote it, for messages.
    var description: String {
        switch self {
        case .number(let number): "number \(number)"
        case .isbn(let isbn): "ISBN \(isbn)"
        case .volumeID(let id): "volume id \(id)"
        }
    }
}
