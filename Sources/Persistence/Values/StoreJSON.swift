import Foundation

/// The JSON the store keeps in `TEXT` columns for values that have no column type of their own.
///
/// Keys are sorted. JSON has no infinity and no NaN, and writing them as strings would make a
/// value that decodes a string or a number (`"+Infinity"`) come back as the other, so a value
/// holding one is refused, naming the path to it; a `Double` property of its own keeps infinities.
enum StoreJSON {
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static func makeDecoder() -> JSONDecoder { JSONDecoder() }

    static func encode(
        _ value: any Encodable, column: ColumnSchema, schema: EntitySchema, using encoder: JSONEncoder
    ) throws(PersistenceError) -> String {
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch EncodingError.invalidValue(let invalid, let context) where invalid is Double || invalid is Float {
            let path = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
                .joined()
            let number = (invalid as? Double).map { "\($0)" } ?? (invalid as? Float).map { "\($0)" } ?? "\(invalid)"
            throw PersistenceError(
                .unsupportedValue,
                "\(schema.entityName).\(column.name)\(path) is \(number), which the store keeps as JSON, "
                    + "and JSON has no infinity or NaN. Give the number a Double property of its own (which keeps "
                    + "infinities), or use nil for a missing number.",
                entity: schema.entityName, property: column.name)
        } catch {
            throw PersistenceError(
                .unsupportedValue,
                "\(schema.entityName).\(column.name) (\(column.swiftType)) could not be encoded as JSON: \(error).",
                entity: schema.entityName, property: column.name)
        }
    }

    static func decode<T: Decodable>(
        _ type: T.Type, from data: Data, column: ColumnSchema, schema: EntitySchema, using decoder: JSONDecoder
    ) throws(PersistenceError) -> T {
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            throw PersistenceError(
                .decodingFailed,
                "\(schema.entityName).\(column.name) holds JSON that is not a valid \(T.self): \(error). "
                    + "If the property's type changed, add a Migration that converts the stored rows.",
                entity: schema.entityName, property: column.name)
        }
    }
}
