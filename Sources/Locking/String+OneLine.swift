extension String {
    /// The text on one line: every line break (`\n`, `\r\n`, U+2028…) becomes a space, so an
    /// error's `description` stays one line whatever a server, a file or SQL put into it.
    package var oneLine: String {
        guard contains(where: \.isNewline) else { return self }
        return String(map { $0.isNewline ? " " : $0 })
    }
}
