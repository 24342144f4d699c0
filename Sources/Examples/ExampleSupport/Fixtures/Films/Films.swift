/// The real films of the offline TMDB catalogue, in tables by theme, one file each
/// (`Films+Sagas.swift`, `Films+Classics.swift`, `Films+World.swift`, …).
enum Films {
    /// Every table, in catalogue order.
    static var all: [Film] {
        sagas + franchises + superheroes + classics + modern + recent + latest + animation + world
    }
}
