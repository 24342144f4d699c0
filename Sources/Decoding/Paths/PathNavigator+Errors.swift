import Foundation

/// The errors path navigation throws, shaped so that ``DecodingFailure`` names the whole path.
extension PathNavigator {

    /// A `keyNotFound` whose coding path and key spell the whole path that was asked for.
    static func missing(
        _ path: PathExpression, step: Int, codingPath: [any CodingKey], reason: String
    )
        -> DecodingError
    {
        var fullPath = codingPath
        let steps = path.steps
        for index in step..<(steps.count - 1) {
            fullPath.append(AnyCodingKey(steps[index].text))
        }
        let location = CodingPathFormatter.string(codingPath)
        let detail = location.isEmpty ? reason : "\(reason) in \(location)"
        return .keyNotFound(
            AnyCodingKey(steps[steps.count - 1].text),
            DecodingError.Context(codingPath: fullPath, debugDescription: "\(missingPrefix)\(detail)"))
    }

    /// The error for a filter step that matches no element of `container`.
    static func noMatch(
        _ path: PathExpression, step: Int, field: AnyCodingKey, value: String,
        in container: any UnkeyedDecodingContainer
    ) -> DecodingError {
        missing(
            path, step: step, codingPath: container.codingPath,
            reason: "no element with \(field.stringValue) == \"\(value)\"")
    }

    /// The start of the debug description of a path that is missing, read by ``DecodingFailure``.
    static let missingPrefix = "required value is missing: "

    static func arrayStepOnObject(
        _ path: PathExpression, step: Int, codingPath: [any CodingKey]
    )
        -> DecodingError
    {
        .typeMismatch(
            [Any].self,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription:
                    "Expected to decode Array<Any> but found a dictionary instead. (step \(path.steps[step].text) of path \(path.text) reads arrays)"
            ))
    }

    static func keyStepOnArray(
        _ path: PathExpression, step: Int, codingPath: [any CodingKey]
    )
        -> DecodingError
    {
        .typeMismatch(
            [String: Any].self,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription:
                    "Expected to decode Dictionary<String, Any> but found an array instead. (step \(path.steps[step].text) of path \(path.text) is a key)"
            ))
    }
}
