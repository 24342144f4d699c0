/// Joins an array of strings with `", "`, as a book's authors are shown.
///
/// Reversing splits on `", "`, which is exact unless a string itself contains `", "`.
public enum JoinedStrings: ReversibleTransform {
    /// Joins the strings with `", "`.
    ///
    /// - Parameter input: the strings.
    /// - Returns: the joined text.
    @inlinable
    public static func transform(_ input: [String]) -> String {
        input.joined(separator: ", ")
    }

    /// Splits the text on `", "`.
    ///
    /// - Parameter output: the joined text.
    /// - Returns: the strings.
    public static func reverse(_ output: String) -> [String] {
        output.isEmpty ? [] : output.components(separatedBy: ", ")
    }
}
