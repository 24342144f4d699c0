extension String {
    /// The text on one line: each run of line breaks becomes one space, so an error line stays
    /// one line whatever a server or a file put into it.
    var oneLine: String {
        guard contains(where: \.isNewline) else { return self }
        return split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
