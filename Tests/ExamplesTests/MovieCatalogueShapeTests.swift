import ExampleSupport
import Foundation
import Testing

/// The offline TMDB catalogue has the shape of the world it stands for: every film's original
/// title is written in its language's script, ids are unique, and every film of the big
/// series is there, in release order.
@Suite struct MovieCatalogueShapeTests {
    static let catalogue = MovieCatalogue(driftSeed: nil)

    /// The Unicode scalar ranges of a script.
    enum Script: CaseIterable {
        case latin, cyrillic, greek, han, kana, hangul, devanagari, bengali, arabic, hebrew, thai

        /// The ranges of its letters (and marks written with them).
        var ranges: [ClosedRange<UInt32>] {
            switch self {
            case .latin: [0x41...0x5A, 0x61...0x7A, 0xAA...0xAA, 0xBA...0xBA, 0xC0...0x24F, 0x1E00...0x1EFF]
            case .cyrillic: [0x400...0x52F]
            case .greek: [0x370...0x3FF, 0x1F00...0x1FFF]
            case .han: [0x3005...0x3007, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF]
            case .kana: [0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F]
            case .hangul: [0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF]
            case .devanagari: [0x900...0x97F]
            case .bengali: [0x980...0x9FF]
            case .arabic: [0x600...0x6FF, 0x750...0x77F, 0xFB50...0xFDFF, 0xFE70...0xFEFF]
            case .hebrew: [0x590...0x5FF]
            case .thai: [0xE00...0xE7F]
            }
        }

        /// The script of a letter, if it is one of these.
        static func of(_ scalar: Unicode.Scalar) -> Script? {
            allCases.first { $0.ranges.contains { $0.contains(scalar.value) } }
        }
    }

    /// The scripts each original language is written in (TMDB's `cn` is Cantonese).
    static let scripts: [String: Set<Script>] = {
        var scripts: [String: Set<Script>] = [
            "ru": [.cyrillic], "uk": [.cyrillic], "el": [.greek], "zh": [.han], "cn": [.han],
            "ja": [.han, .kana], "ko": [.hangul, .han], "hi": [.devanagari], "bn": [.bengali], "ar": [.arabic],
            "fa": [.arabic], "he": [.hebrew], "th": [.thai],
        ]
        for latin in [
            "en", "fr", "de", "it", "es", "pt", "sv", "da", "no", "nl", "pl", "cs", "hu", "tr", "fi", "is", "ro",
        ] {
            scripts[latin] = [.latin]
        }
        return scripts
    }()

    /// What is wrong with an original title in a language, if anything.
    static func scriptProblem(title: String, language: String) -> String? {
        guard let allowed = scripts[language] else { return "no script known for the language \(language)" }
        let letters = title.unicodeScalars.filter { $0.properties.isAlphabetic }
        guard !letters.isEmpty else { return nil }  // "8½" or "1917": no letters to check
        let foreign = letters.filter { Script.of($0).map { !allowed.contains($0) } ?? true }
        if !foreign.isEmpty { return "letters \(String(String.UnicodeScalarView(foreign))) are not \(allowed)" }
        if !allowed.contains(.latin), !letters.contains(where: { Script.of($0).map(allowed.contains) == true }) {
            return "no letter of \(allowed)"
        }
        return nil
    }

    @Test func theScriptRuleCatchesATitleInTheWrongScript() {
        #expect(Self.scriptProblem(title: "千と千尋の神隠し", language: "ja") == nil)
        #expect(Self.scriptProblem(title: "기생충", language: "ko") == nil)
        #expect(Self.scriptProblem(title: "Amélie", language: "fr") == nil)
        #expect(Self.scriptProblem(title: "AKIRA", language: "ja") != nil)
        #expect(Self.scriptProblem(title: "Sholay", language: "hi") != nil)
        #expect(Self.scriptProblem(title: "Сталкер", language: "en") != nil)
        #expect(Self.scriptProblem(title: "Parasite", language: "xx") != nil)
    }

    @Test func everyFilmsOriginalTitleIsInItsLanguagesScript() {
        let problems = Self.catalogue.allMovies.compactMap { movie in
            Self.scriptProblem(title: movie.originalTitle, language: movie.originalLanguage)
                .map { "\(movie.title) (\(movie.originalLanguage), \(movie.originalTitle)): \($0)" }
        }
        #expect(problems.isEmpty, "\(problems)")
        // World cinema is there, under its own titles.
        let languages = Set(Self.catalogue.allMovies.map(\.originalLanguage))
        #expect(
            languages.isSuperset(of: ["ja", "ko", "zh", "cn", "hi", "ru", "fr", "it", "es", "de", "fa", "ar", "he"]))
    }

    @Test func theCatalogueHoldsOverFiveHundredRealFilmsWithUniqueIDs() {
        let all = Self.catalogue.allMovies
        #expect(all.count >= 500)
        #expect(Set(all.map(\.id)).count == all.count)
        #expect(Self.catalogue.movies.count == all.count)
        // Each decade from the 1920s has films.
        for decade in stride(from: 1920, through: 2020, by: 10) {
            #expect(all.filter { ($0.year ?? 0) / 10 * 10 == decade }.count >= 10, "\(decade)s")
        }
        // No two films share a title and a release year.
        let keys = all.map { "\($0.title)|\($0.year ?? 0)" }
        #expect(Set(keys).count == keys.count)
    }

    /// Every film of the big series, in release order: written here, apart from the catalogue's
    /// tables, so a film left out or misdated fails.
    static let series: [(name: String, titles: [String])] = [
        (
            "Star Wars",
            [
                "Star Wars", "The Empire Strikes Back", "Return of the Jedi",
                "Star Wars: Episode I - The Phantom Menace",
                "Star Wars: Episode II - Attack of the Clones", "Star Wars: Episode III - Revenge of the Sith",
                "Star Wars: The Force Awakens", "Rogue One: A Star Wars Story", "Star Wars: The Last Jedi",
                "Solo: A Star Wars Story", "Star Wars: The Rise of Skywalker",
            ]
        ),
        ("The Godfather", ["The Godfather", "The Godfather Part II", "The Godfather Part III"]),
        (
            "Middle-earth",
            [
                "The Lord of the Rings: The Fellowship of the Ring", "The Lord of the Rings: The Two Towers",
                "The Lord of the Rings: The Return of the King", "The Hobbit: An Unexpected Journey",
                "The Hobbit: The Desolation of Smaug", "The Hobbit: The Battle of the Five Armies",
            ]
        ),
        (
            "Harry Potter",
            [
                "Harry Potter and the Philosopher's Stone", "Harry Potter and the Chamber of Secrets",
                "Harry Potter and the Prisoner of Azkaban", "Harry Potter and the Goblet of Fire",
                "Harry Potter and the Order of the Phoenix", "Harry Potter and the Half-Blood Prince",
                "Harry Potter and the Deathly Hallows: Part 1", "Harry Potter and the Deathly Hallows: Part 2",
            ]
        ),
        ("Back to the Future", ["Back to the Future", "Back to the Future Part II", "Back to the Future Part III"]),
        (
            "Alien",
            ["Alien", "Aliens", "Alien³", "Alien Resurrection", "Prometheus", "Alien: Covenant", "Alien: Romulus"]
        ),
        (
            "Toy Story", ["Toy Story", "Toy Story 2", "Toy Story 3", "Toy Story 4"]
        ),
        (
            "Jurassic Park",
            [
                "Jurassic Park", "The Lost World: Jurassic Park", "Jurassic Park III", "Jurassic World",
                "Jurassic World: Fallen Kingdom", "Jurassic World Dominion", "Jurassic World Rebirth",
            ]
        ),
        (
            "The Matrix", ["The Matrix", "The Matrix Reloaded", "The Matrix Revolutions", "The Matrix Resurrections"]
        ),
        (
            "James Bond",
            [
                "Dr. No", "From Russia with Love", "Goldfinger", "Thunderball", "You Only Live Twice",
                "On Her Majesty's Secret Service", "Diamonds Are Forever", "Live and Let Die",
                "The Man with the Golden Gun", "The Spy Who Loved Me", "Moonraker", "For Your Eyes Only",
                "Octopussy", "A View to a Kill", "The Living Daylights", "Licence to Kill", "GoldenEye",
                "Tomorrow Never Dies", "The World Is Not Enough", "Die Another Day", "Casino Royale",
                "Quantum of Solace", "Skyfall", "Spectre", "No Time to Die",
            ]
        ),
        (
            "The Fast and the Furious",
            [
                "The Fast and the Furious", "2 Fast 2 Furious", "The Fast and the Furious: Tokyo Drift",
                "Fast & Furious", "Fast Five", "Fast & Furious 6", "Furious 7", "The Fate of the Furious", "F9",
                "Fast X",
            ]
        ),
        (
            "The Avengers",
            ["The Avengers", "Avengers: Age of Ultron", "Avengers: Infinity War", "Avengers: Endgame"]
        ),
        ("Dune", ["Dune", "Dune: Part Two"]),
        (
            "Mission: Impossible",
            [
                "Mission: Impossible", "Mission: Impossible II", "Mission: Impossible III",
                "Mission: Impossible - Ghost Protocol", "Mission: Impossible - Rogue Nation",
                "Mission: Impossible - Fallout", "Mission: Impossible - Dead Reckoning Part One",
                "Mission: Impossible - The Final Reckoning",
            ]
        ),
        ("Shrek", ["Shrek", "Shrek 2", "Shrek the Third", "Shrek Forever After"]),
        (
            "The Hunger Games",
            [
                "The Hunger Games", "The Hunger Games: Catching Fire", "The Hunger Games: Mockingjay - Part 1",
                "The Hunger Games: Mockingjay - Part 2", "The Hunger Games: The Ballad of Songbirds & Snakes",
            ]
        ),
        (
            "Pirates of the Caribbean",
            [
                "Pirates of the Caribbean: The Curse of the Black Pearl", "Pirates of the Caribbean: Dead Man's Chest",
                "Pirates of the Caribbean: At World's End", "Pirates of the Caribbean: On Stranger Tides",
                "Pirates of the Caribbean: Dead Men Tell No Tales",
            ]
        ),
        (
            "Indiana Jones",
            [
                "Raiders of the Lost Ark", "Indiana Jones and the Temple of Doom", "Indiana Jones and the Last Crusade",
                "Indiana Jones and the Kingdom of the Crystal Skull", "Indiana Jones and the Dial of Destiny",
            ]
        ),
        (
            "Rocky",
            ["Rocky", "Rocky II", "Rocky III", "Rocky IV", "Rocky V", "Rocky Balboa", "Creed", "Creed II", "Creed III"]
        ),
        (
            "The Terminator",
            [
                "The Terminator", "Terminator 2: Judgment Day", "Terminator 3: Rise of the Machines",
                "Terminator Salvation", "Terminator Genisys", "Terminator: Dark Fate",
            ]
        ),
    ]

    @Test func everyFilmOfTheBigSeriesIsThereInReleaseOrder() throws {
        let all = Self.catalogue.allMovies
        for (name, titles) in Self.series {
            var previous = ""
            for title in titles {
                // A remake shares its title: the series' film is the first released after the previous one.
                let film = all.filter { $0.title == title && $0.releaseDate > previous }.min {
                    $0.releaseDate < $1.releaseDate
                }
                let found = try #require(film, "\(name): \(title) is missing or released before \(previous)")
                previous = found.releaseDate
            }
        }
    }
}
