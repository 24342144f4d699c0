/// Why an SVG file could not be read.
struct SVGElementError: Error, CustomStringConvertible {
    /// What went wrong.
    let description: String
}
