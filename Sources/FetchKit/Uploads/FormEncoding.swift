import Foundation

/// Flattens an `Encodable` value into `application/x-www-form-urlencoded` fields.
///
/// The value goes through `JSONEncoder` (so its coding keys and strategies apply) and the
/// JSON tree is flattened with bracket notation: `a[b]=1`, `list[]=x`.
enum FormEncoding {
    static func encode(_ value: some Encodable, encoder: JSONEncoder) throws(FetchError) -> Data {
        let object: Any
        do {
            let copy = JSONEncoder()
            copy.dateEncodingStrategy = encoder.dateEncodingStrategy
            copy.dataEncodingStrategy = encoder.dataEncodingStrategy
            copy.keyEncodingStrategy = encoder.keyEncodingStrategy
            copy.nonConformingFloatEncodingStrategy = encoder.nonConformingFloatEncodingStrategy
            copy.outputFormatting = [.sortedKeys]
            copy.userInfo = encoder.userInfo
            let json = try copy.encode(value)
            object = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
        } catch {
            throw FetchError(
                code: .invalidRequest, detail: "the form body could not be encoded (\(error)). Check the body's value")
        }
        guard let dictionary = object as? [String: Any] else {
            throw FetchError(
                code: .invalidRequest,
                detail: "a form body needs named fields, but the value encodes as \(kind(of: object)). "
                    + "Pass a struct or a dictionary")
        }
        var items: [URLQueryItem] = []
        for key in dictionary.keys.sorted() {
            flatten(dictionary[key] as Any, name: key, into: &items)
        }
        return Data(PercentEncoding.encodeQuery(items).utf8)
    }

    private static func flatten(_ value: Any, name: String, into items: inout [URLQueryItem]) {
        switch value {
        case let dictionary as [String: Any]:
            for key in dictionary.keys.sorted() {
                flatten(dictionary[key] as Any, name: "\(name)[\(key)]", into: &items)
            }
        case let array as [Any]:
            for element in array { flatten(element, name: "\(name)[]", into: &items) }
        case let string as String:
            items.append(URLQueryItem(name: name, value: string))
        case let number as NSNumber:
            items.append(URLQueryItem(name: name, value: text(of: number)))
        case is NSNull:
            items.append(URLQueryItem(name: name, value: ""))
        default:
            items.append(URLQueryItem(name: name, value: "\(value)"))
        }
    }

    /// `true`/`false` for JSON booleans (an `NSNumber` of type `c`), the shortest form otherwise.
    private static func text(of number: NSNumber) -> String {
        if String(cString: number.objCType) == "c" { return number.boolValue ? "true" : "false" }
        return number.stringValue
    }

    private static func kind(of object: Any) -> String {
        switch object {
        case is [Any]: "a list"
        case is String: "a string"
        case is NSNumber: "a number"
        default: "a single value"
        }
    }
}
