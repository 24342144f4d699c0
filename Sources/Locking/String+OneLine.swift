extension String {
    /// The text on one line: each run of line breaks (`\n`, `\r\n`, U+2028…) becomes one space,
    /// and breaks at either end go, so an error's `description` or a program's error line stays
    /// one line whatever a server, a file or SQL put into it.
    package var oneLine: String {
        guard contains(where: \.isNewline) else { return self }
        return split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
