import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// The folded form that case-insensitive sorts, filters and indexes compare.
///
/// Text is lower-cased with Unicode's default lowercase mapping (the Swift standard library's
/// `lowercased()`), decomposed to Unicode canonical decomposition (NFD), and stripped of
/// nonspacing marks (general category `Mn`, which holds the combining accents). Folded forms are
/// compared by code point. So "Éclair" folds to "eclair", "Ångström" to "angstrom", "İstanbul"
/// to "istanbul"; ligatures, full-width forms and "ß" are kept as they are.
enum TextFold {
    /// The folded-text column's value for a stored value: the folded text, or `NULL`.
    static func folded(_ value: DatabaseValue) -> DatabaseValue {
        value.textValue.map { .text(fold($0)) } ?? .null
    }

    static func fold(_ text: String) -> String {
        var isASCII = true
        for byte in text.utf8 where byte >= 0x80 {
            isASCII = false
            break
        }
        if isASCII {
            var bytes = Array(text.utf8)
            for index in bytes.indices where bytes[index] >= 0x41 && bytes[index] <= 0x5A { bytes[index] += 0x20 }
            return String(decoding: bytes, as: UTF8.self)
        }
        var scalars = String.UnicodeScalarView()
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark {
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// The folded form of characters whose case mappings Unicode added over the years (Cherokee,
    /// Georgian Mtavruli, Adlam, Medefaidrin, recent Latin): it differs when a platform's Unicode
    /// tables do, and the store then folds its stored texts again.
    static let fingerprint = "fold-1:" + fold("ǅẞᎠꭰᲐ𐐀𖹀𞤀ꟀꟐɤİÅﬃ")

    /// The SQL function `fk_fold(text)` the store registers on its own connections, for
    /// case-insensitive sorts and filters on properties without a folded index. Nothing in the file
    /// refers to it, so other programs read the file without it.
    static let functionName = "fk_fold"

    static func register(on handle: OpaquePointer) {
        sqlite3_create_function_v2(
            handle, functionName, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, count, arguments in
                guard count == 1, let argument = arguments?[0] else {
                    sqlite3_result_null(context)
                    return
                }
                // Only text has case: numbers, blobs and NULL come back as they are.
                guard sqlite3_value_type(argument) == SQLITE_TEXT, let pointer = sqlite3_value_text(argument) else {
                    sqlite3_result_value(context, argument)
                    return
                }
                let length = Int(sqlite3_value_bytes(argument))
                var folded = TextFold.fold(
                    String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self))
                folded.withUTF8 { buffer in
                    sqlite3_result_text64(
                        context,
                        UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                            .assumingMemoryBound(to: CChar.self), sqlite3_uint64(buffer.count), sqliteTransient,
                        UInt8(SQLITE_UTF8))
                }
            }, nil, nil, nil)
    }

    /// The smallest string greater than every string that starts with `prefix` (in code-point
    /// order), or `nil` when there is none; bounds an index range for a prefix match.
    static func prefixUpperBound(_ prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars)
                return String(view)
            }
        }
        return nil
    }
}
