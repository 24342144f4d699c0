import Foundation

// The secret fields of request and response bodies: JSON, `application/x-www-form-urlencoded`
// and `multipart/form-data`.
extension Redactor {
    /// A body's text with the values of secret fields redacted: the fields of an
    /// `application/x-www-form-urlencoded` body, the parts of a `multipart/form-data` body that are
    /// not files, and the string, number and boolean fields of a JSON body (`"password":"…"`,
    /// `"pin":1234`, at any depth), each replaced by `"REDACTED"`. A body without a type is read as
    /// JSON when it starts with `{` or `[`. Other bodies are returned as they are.
    ///
    /// - Parameters:
    ///   - text: the body as text.
    ///   - contentType: the body's `Content-Type`, which says how to read it.
    /// - Returns: the body, each secret value replaced by ``placeholder``.
    public func redact(body text: String, contentType: String?) -> String {
        secretFields(in: text, contentType: contentType).redacted
    }

    /// The values of a body's secret fields, as ``redact(body:contentType:)`` finds them (form
    /// values raw and decoded), longest first: what to ``scrub(_:secrets:)`` from texts that may
    /// repeat them.
    ///
    /// - Parameters:
    ///   - text: the body as text.
    ///   - contentType: the body's `Content-Type`.
    /// - Returns: the secret values.
    public func secretValues(inBody text: String, contentType: String?) -> [String] {
        secretFields(in: text, contentType: contentType).values.sorted { $0.count > $1.count }
    }

    private func secretFields(in text: String, contentType: String?) -> (redacted: String, values: [String]) {
        let type = (contentType ?? "").lowercased()
        if type.hasPrefix("application/x-www-form-urlencoded") { return formFields(text) }
        if type.hasPrefix("multipart/form-data") { return multipartFields(text, contentType: contentType ?? "") }
        let start = text.first { !$0.isWhitespace }
        if type.contains("json") || (type.isEmpty && (start == "{" || start == "[")) { return jsonFields(text) }
        return (text, [])
    }

    private func formFields(_ text: String) -> (redacted: String, values: [String]) {
        var values: [String] = []
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0].replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? parts[0]
            guard parts.count == 2, isSecret(name) else { continue }
            values.append(parts[1])
            if let decoded = parts[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding {
                values.append(decoded)
            }
        }
        return (redact(query: text), values)
    }

    /// Replaces the values of secret-named string, number and boolean fields in JSON text.
    private func jsonFields(_ text: String) -> (redacted: String, values: [String]) {
        let pattern = #""([^"\\]{1,64})"\s*:\s*("(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*|true|false)"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return (text, []) }
        var result = text
        var values: [String] = []
        let matches = regex.matches(in: text, range: NSRange(text.startIndex..., in: text))
        for match in matches.reversed() {
            guard let nameRange = Range(match.range(at: 1), in: text),
                let valueRange = Range(match.range(at: 2), in: text),
                isSecret(String(text[nameRange]))
            else { continue }
            var value = text[valueRange]
            if value.hasPrefix("\"") { value = value.dropFirst().dropLast() }
            values.append(String(value))
            let offset = text.distance(from: text.startIndex, to: valueRange.lowerBound)
            let length = text.distance(from: valueRange.lowerBound, to: valueRange.upperBound)
            let start = result.index(result.startIndex, offsetBy: offset)
            result.replaceSubrange(start..<result.index(start, offsetBy: length), with: "\"\(Self.placeholder)\"")
        }
        return (result, values)
    }

    /// Replaces the values of secret-named parts (not files) of a `multipart/form-data` body.
    private func multipartFields(_ text: String, contentType: String) -> (redacted: String, values: [String]) {
        guard let boundary = Self.parameter("boundary", of: contentType), !boundary.isEmpty else { return (text, []) }
        let delimiter = "--" + boundary
        var parts = text.components(separatedBy: delimiter)
        var values: [String] = []
        for index in parts.indices.dropFirst() {
            let part = parts[index]
            guard let headEnd = part.range(of: "\r\n\r\n") else { continue }
            let head = part[..<headEnd.lowerBound].lowercased()
            guard
                let disposition = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-disposition:") }),
                !disposition.contains("filename="),
                let name = Self.parameter(
                    "name",
                    of: String(
                        part[..<headEnd.lowerBound].split(separator: "\r\n")
                            .first(where: { $0.lowercased().hasPrefix("content-disposition:") }) ?? "")),
                isSecret(name)
            else { continue }
            let body = part[headEnd.upperBound...]
            let value = body.hasSuffix("\r\n") ? body.dropLast(2) : body[...]
            values.append(String(value))
            parts[index] =
                String(part[..<headEnd.upperBound]) + Self.placeholder + (body.hasSuffix("\r\n") ? "\r\n" : "")
        }
        return (parts.joined(separator: delimiter), values)
    }

    /// The value of parameter `name` in a header's value (`boundary=x`, `name="password"`).
    private static func parameter(_ name: String, of value: String) -> String? {
        for field in value.split(separator: ";").dropFirst() {
            let pair = field.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == name else { continue }
            return pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }
}
