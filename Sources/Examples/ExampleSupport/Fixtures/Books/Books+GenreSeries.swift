extension Books {
    /// Crime, spy and sea-story series, every volume in order of publication.
    static let mysterySeries: [[Book]] = [
        Book.series(
            "Sherlock Holmes", "Arthur Conan Doyle", .fiction,
            [
                ("A Study in Scarlet", 1887, 176), ("The Sign of the Four", 1890, 283),
                ("The Adventures of Sherlock Holmes", 1892, 307), ("The Memoirs of Sherlock Holmes", 1893, 279),
                ("The Hound of the Baskervilles", 1902, 359), ("The Return of Sherlock Holmes", 1905, 403),
                ("The Valley of Fear", 1915, 320), ("His Last Bow", 1917, 305),
                ("The Case-Book of Sherlock Holmes", 1927, 320),
            ]),
        Book.series(
            "Hercule Poirot", "Agatha Christie", .fiction,
            [
                ("The Mysterious Affair at Styles", 1920, 296), ("The Murder on the Links", 1923, 326),
                ("The Murder of Roger Ackroyd", 1926, 312), ("The Big Four", 1927, 282),
                ("The Mystery of the Blue Train", 1928, 308), ("Peril at End House", 1932, 252),
                ("Lord Edgware Dies", 1933, 252), ("Murder on the Orient Express", 1934, 256),
                ("Three Act Tragedy", 1935, 252), ("Death in the Clouds", 1935, 252),
                ("The A.B.C. Murders", 1936, 256), ("Murder in Mesopotamia", 1936, 288),
                ("Cards on the Table", 1936, 288), ("Dumb Witness", 1937, 320), ("Death on the Nile", 1937, 288),
                ("Appointment with Death", 1938, 256), ("Hercule Poirot's Christmas", 1938, 252),
                ("Sad Cypress", 1940, 256), ("One, Two, Buckle My Shoe", 1940, 256),
                ("Evil Under the Sun", 1941, 252), ("Five Little Pigs", 1942, 234), ("The Hollow", 1946, 256),
                ("Taken at the Flood", 1948, 224), ("Mrs McGinty's Dead", 1952, 192),
                ("After the Funeral", 1953, 192), ("Hickory Dickory Dock", 1955, 192),
                ("Dead Man's Folly", 1956, 256), ("Cat Among the Pigeons", 1959, 256), ("The Clocks", 1963, 256),
                ("Third Girl", 1966, 256), ("Hallowe'en Party", 1969, 256), ("Elephants Can Remember", 1972, 256),
                ("Curtain", 1975, 224),
            ]),
        Book.series(
            "Miss Marple", "Agatha Christie", .fiction,
            [
                ("The Murder at the Vicarage", 1930, 256), ("The Body in the Library", 1942, 224),
                ("The Moving Finger", 1942, 224), ("A Murder Is Announced", 1950, 256),
                ("They Do It with Mirrors", 1952, 192), ("A Pocket Full of Rye", 1953, 192),
                ("4.50 from Paddington", 1957, 256), ("The Mirror Crack'd from Side to Side", 1962, 255),
                ("A Caribbean Mystery", 1964, 256), ("At Bertram's Hotel", 1965, 256), ("Nemesis", 1971, 256),
                ("Sleeping Murder", 1976, 224),
            ]),
        Book.series(
            "James Bond", "Ian Fleming", .fiction, publisher: "Jonathan Cape",
            [
                ("Casino Royale", 1953, 213), ("Live and Let Die", 1954, 234), ("Moonraker", 1955, 256),
                ("Diamonds Are Forever", 1956, 257), ("From Russia, with Love", 1957, 253), ("Dr. No", 1958, 256),
                ("Goldfinger", 1959, 318), ("For Your Eyes Only", 1960, 252), ("Thunderball", 1961, 253),
                ("The Spy Who Loved Me", 1962, 221), ("On Her Majesty's Secret Service", 1963, 288),
                ("You Only Live Twice", 1964, 260), ("The Man with the Golden Gun", 1965, 221),
                ("Octopussy and The Living Daylights", 1966, 94),
            ]),
        Book.series(
            "Millennium", "Stieg Larsson", .fiction, from: "sv",
            [
                ("The Girl with the Dragon Tattoo", 2005, 465), ("The Girl Who Played with Fire", 2006, 503),
                ("The Girl Who Kicked the Hornets' Nest", 2007, 602),
            ]),
        Book.series(
            "Aubrey–Maturin", "Patrick O'Brian", .fiction, publisher: "Collins",
            [
                ("Master and Commander", 1969, 384), ("Post Captain", 1972, 413), ("HMS Surprise", 1973, 379),
                ("The Mauritius Command", 1977, 348), ("Desolation Island", 1978, 325),
                ("The Fortune of War", 1979, 329), ("The Surgeon's Mate", 1980, 382),
                ("The Ionian Mission", 1981, 367), ("Treason's Harbour", 1983, 334),
                ("The Far Side of the World", 1984, 366), ("The Reverse of the Medal", 1986, 287),
                ("The Letter of Marque", 1988, 284), ("The Thirteen-Gun Salute", 1989, 319),
                ("The Nutmeg of Consolation", 1991, 315), ("Clarissa Oakes", 1992, 256),
                ("The Wine-Dark Sea", 1993, 261), ("The Commodore", 1994, 281), ("The Yellow Admiral", 1996, 261),
                ("The Hundred Days", 1998, 280), ("Blue at the Mizzen", 1999, 261),
            ]),
        Book.series(
            "Jack Reacher", "Lee Child", .fiction,
            [
                ("Killing Floor", 1997, 524), ("Die Trying", 1998, 550), ("Tripwire", 1999, 550),
                ("Running Blind", 2000, 496), ("Echo Burning", 2001, 512), ("Without Fail", 2002, 496),
                ("Persuader", 2003, 500), ("The Enemy", 2004, 480), ("One Shot", 2005, 480),
                ("The Hard Way", 2006, 480), ("Bad Luck and Trouble", 2007, 464), ("Nothing to Lose", 2008, 496),
                ("Gone Tomorrow", 2009, 480), ("61 Hours", 2010, 448), ("Worth Dying For", 2010, 464),
                ("The Affair", 2011, 464), ("A Wanted Man", 2012, 448), ("Never Go Back", 2013, 432),
                ("Personal", 2014, 416), ("Make Me", 2015, 416), ("Night School", 2016, 384),
                ("The Midnight Line", 2017, 384), ("Past Tense", 2018, 384), ("Blue Moon", 2019, 368),
            ]),
        Book.series(
            "Robert Langdon", "Dan Brown", .fiction,
            [
                ("Angels & Demons", 2000, 480), ("The Da Vinci Code", 2003, 454), ("The Lost Symbol", 2009, 509),
                ("Inferno", 2013, 462), ("Origin", 2017, 461),
            ]),
        Book.series(
            "Hannibal Lecter", "Thomas Harris", .fiction,
            [
                ("Red Dragon", 1981, 348), ("The Silence of the Lambs", 1988, 338), ("Hannibal", 1999, 484),
                ("Hannibal Rising", 2006, 323),
            ]),
        Book.series(
            "Cormoran Strike", "Robert Galbraith", .fiction,
            [
                ("The Cuckoo's Calling", 2013, 455), ("The Silkworm", 2014, 455), ("Career of Evil", 2015, 494),
                ("Lethal White", 2018, 650), ("Troubled Blood", 2020, 927), ("The Ink Black Heart", 2022, 1024),
                ("The Running Grave", 2023, 960),
            ]),
    ]

    /// Science fiction and comic fantasy series, every volume in order of publication.
    static let scienceFictionSeries: [[Book]] = [
        Book.series(
            "Dune", "Frank Herbert", .fiction,
            [
                ("Dune", 1965, 412), ("Dune Messiah", 1969, 256), ("Children of Dune", 1976, 444),
                ("God Emperor of Dune", 1981, 423), ("Heretics of Dune", 1984, 471), ("Chapterhouse: Dune", 1985, 464),
            ]),
        Book.series(
            "Foundation", "Isaac Asimov", .fiction,
            [
                ("Foundation", 1951, 255), ("Foundation and Empire", 1952, 247), ("Second Foundation", 1953, 210),
                ("Foundation's Edge", 1982, 366), ("Foundation and Earth", 1986, 356),
                ("Prelude to Foundation", 1988, 403), ("Forward the Foundation", 1993, 417),
            ]),
        Book.series(
            "The Hitchhiker's Guide to the Galaxy", "Douglas Adams", .fiction,
            [
                ("The Hitchhiker's Guide to the Galaxy", 1979, 180),
                ("The Restaurant at the End of the Universe", 1980, 208),
                ("Life, the Universe and Everything", 1982, 227), ("So Long, and Thanks for All the Fish", 1984, 204),
                ("Mostly Harmless", 1992, 277),
            ]),
        Book.series(
            "Ender's Saga", "Orson Scott Card", .fiction, publisher: "Tor Books",
            [
                ("Ender's Game", 1985, 324), ("Speaker for the Dead", 1986, 415), ("Xenocide", 1991, 592),
                ("Children of the Mind", 1996, 349),
            ]),
        Book.series(
            "Hyperion Cantos", "Dan Simmons", .fiction,
            [
                ("Hyperion", 1989, 482), ("The Fall of Hyperion", 1990, 517), ("Endymion", 1996, 563),
                ("The Rise of Endymion", 1997, 709),
            ]),
        Book.series(
            "Remembrance of Earth's Past", "Liu Cixin", .fiction, from: "zh",
            [("The Three-Body Problem", 2008, 400), ("The Dark Forest", 2008, 512), ("Death's End", 2010, 604)]),
        Book.series(
            "Sprawl", "William Gibson", .fiction, publisher: "Ace Books",
            [("Neuromancer", 1984, 271), ("Count Zero", 1986, 256), ("Mona Lisa Overdrive", 1988, 260)]),
        Book.series(
            "The Expanse", "James S. A. Corey", .fiction, publisher: "Orbit",
            [
                ("Leviathan Wakes", 2011, 561), ("Caliban's War", 2012, 595), ("Abaddon's Gate", 2013, 539),
                ("Cibola Burn", 2014, 583), ("Nemesis Games", 2015, 536), ("Babylon's Ashes", 2016, 608),
                ("Persepolis Rising", 2017, 560), ("Tiamat's Wrath", 2019, 544), ("Leviathan Falls", 2021, 528),
            ]),
        Book.series(
            "The Dark Tower", "Stephen King", .fiction,
            [
                ("The Gunslinger", 1982, 224), ("The Drawing of the Three", 1987, 400), ("The Waste Lands", 1991, 422),
                ("Wizard and Glass", 1997, 787), ("Wolves of the Calla", 2003, 714), ("Song of Susannah", 2004, 432),
                ("The Dark Tower", 2004, 845),
            ]),
        Book.series(
            "Culture", "Iain M. Banks", .fiction,
            [
                ("Consider Phlebas", 1987, 471), ("The Player of Games", 1988, 309), ("Use of Weapons", 1990, 411),
                ("The State of the Art", 1991, 216), ("Excession", 1996, 451), ("Inversions", 1998, 345),
                ("Look to Windward", 2000, 357), ("Matter", 2008, 593), ("Surface Detail", 2010, 627),
                ("The Hydrogen Sonata", 2012, 517),
            ]),
        Book.series(
            "The Murderbot Diaries", "Martha Wells", .fiction, publisher: "Tor.com",
            [
                ("All Systems Red", 2017, 144), ("Artificial Condition", 2018, 158), ("Rogue Protocol", 2018, 158),
                ("Exit Strategy", 2018, 172), ("Network Effect", 2020, 350), ("Fugitive Telemetry", 2021, 172),
                ("System Collapse", 2023, 256),
            ]),
        Book.series(
            "The Space Trilogy", "C. S. Lewis", .fiction, publisher: "The Bodley Head",
            [("Out of the Silent Planet", 1938, 174), ("Perelandra", 1943, 222), ("That Hideous Strength", 1945, 476)]),
        Book.series(
            "Discworld", "Terry Pratchett", .fiction,
            [
                ("The Colour of Magic", 1983, 206), ("The Light Fantastic", 1986, 241), ("Equal Rites", 1987, 228),
                ("Mort", 1987, 243), ("Sourcery", 1988, 243), ("Wyrd Sisters", 1988, 251), ("Pyramids", 1989, 272),
                ("Guards! Guards!", 1989, 288), ("Eric", 1990, 155), ("Moving Pictures", 1990, 288),
                ("Reaper Man", 1991, 256), ("Witches Abroad", 1991, 252), ("Small Gods", 1992, 284),
                ("Lords and Ladies", 1992, 286), ("Men at Arms", 1993, 288), ("Soul Music", 1994, 320),
                ("Interesting Times", 1994, 288), ("Maskerade", 1995, 288), ("Feet of Clay", 1996, 288),
                ("Hogfather", 1996, 288), ("Jingo", 1997, 320), ("The Last Continent", 1998, 320),
                ("Carpe Jugulum", 1998, 288), ("The Fifth Elephant", 1999, 320), ("The Truth", 2000, 320),
                ("Thief of Time", 2001, 320), ("The Last Hero", 2001, 160),
                ("The Amazing Maurice and His Educated Rodents", 2001, 272), ("Night Watch", 2002, 352),
                ("The Wee Free Men", 2003, 263), ("Monstrous Regiment", 2003, 353), ("A Hat Full of Sky", 2004, 278),
                ("Going Postal", 2004, 394), ("Thud!", 2005, 370), ("Wintersmith", 2006, 323),
                ("Making Money", 2007, 394), ("Unseen Academicals", 2009, 400), ("I Shall Wear Midnight", 2010, 355),
                ("Snuff", 2011, 378), ("Raising Steam", 2013, 365), ("The Shepherd's Crown", 2015, 338),
            ]),
    ]
}
