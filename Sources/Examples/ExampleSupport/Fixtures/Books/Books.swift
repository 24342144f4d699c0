/// The real books of the offline Google Books catalogue, in tables by theme, one file each
/// (`Books+Series.swift`, `Books+Classics.swift`, `Books+Computing.swift`, …).
enum Books {
    /// Every table, in catalogue order.
    static var all: [Book] {
        Array((fantasySeries + mysterySeries + scienceFictionSeries).joined())
            + classics + worldClassics + originals + modern + genre + children + nonFiction + science + computing
    }
}
