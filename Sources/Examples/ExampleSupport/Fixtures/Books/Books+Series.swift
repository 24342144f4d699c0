extension Books {
    /// Fantasy and children's series, every volume in order of publication.
    static let fantasySeries: [[Book]] = [
        Book.series(
            "Harry Potter", "J. K. Rowling", .juvenileFiction, publisher: "Bloomsbury",
            [
                ("Harry Potter and the Philosopher's Stone", 1997, 223),
                ("Harry Potter and the Chamber of Secrets", 1998, 251),
                ("Harry Potter and the Prisoner of Azkaban", 1999, 317),
                ("Harry Potter and the Goblet of Fire", 2000, 636),
                ("Harry Potter and the Order of the Phoenix", 2003, 766),
                ("Harry Potter and the Half-Blood Prince", 2005, 607),
                ("Harry Potter and the Deathly Hallows", 2007, 607),
            ]),
        Book.series(
            "The Lord of the Rings", "J. R. R. Tolkien", .fiction, publisher: "George Allen & Unwin",
            [
                ("The Fellowship of the Ring", 1954, 423), ("The Two Towers", 1954, 352),
                ("The Return of the King", 1955, 416),
            ]),
        Book.series(
            "The Chronicles of Narnia", "C. S. Lewis", .juvenileFiction,
            [
                ("The Lion, the Witch and the Wardrobe", 1950, 172), ("Prince Caspian", 1951, 195),
                ("The Voyage of the Dawn Treader", 1952, 223), ("The Silver Chair", 1953, 217),
                ("The Horse and His Boy", 1954, 199), ("The Magician's Nephew", 1955, 183),
                ("The Last Battle", 1956, 184),
            ]),
        Book.series(
            "His Dark Materials", "Philip Pullman", .youngAdult, publisher: "Scholastic",
            [("Northern Lights", 1995, 399), ("The Subtle Knife", 1997, 326), ("The Amber Spyglass", 2000, 518)]),
        Book.series(
            "The Hunger Games", "Suzanne Collins", .youngAdult, publisher: "Scholastic Press",
            [
                ("The Hunger Games", 2008, 374), ("Catching Fire", 2009, 391), ("Mockingjay", 2010, 390),
                ("The Ballad of Songbirds and Snakes", 2020, 517), ("Sunrise on the Reaping", 2025, 382),
            ]),
        Book.series(
            "A Song of Ice and Fire", "George R. R. Martin", .fiction,
            [
                ("A Game of Thrones", 1996, 694), ("A Clash of Kings", 1998, 761), ("A Storm of Swords", 2000, 973),
                ("A Feast for Crows", 2005, 753), ("A Dance with Dragons", 2011, 1016),
            ]),
        Book.series(
            "Earthsea", "Ursula K. Le Guin", .fiction,
            [
                ("A Wizard of Earthsea", 1968, 183), ("The Tombs of Atuan", 1971, 163),
                ("The Farthest Shore", 1972, 223), ("Tehanu", 1990, 226), ("Tales from Earthsea", 2001, 296),
                ("The Other Wind", 2001, 246),
            ]),
        Book.series(
            "The Wheel of Time", "Robert Jordan", .fiction, publisher: "Tor Books",
            [
                ("The Eye of the World", 1990, 782), ("The Great Hunt", 1990, 681), ("The Dragon Reborn", 1991, 624),
                ("The Shadow Rising", 1992, 981), ("The Fires of Heaven", 1993, 912), ("Lord of Chaos", 1994, 987),
                ("A Crown of Swords", 1996, 856), ("The Path of Daggers", 1998, 604), ("Winter's Heart", 2000, 766),
                ("Crossroads of Twilight", 2003, 822), ("Knife of Dreams", 2005, 837),
                ("The Gathering Storm", 2009, 783), ("Towers of Midnight", 2010, 843),
                ("A Memory of Light", 2013, 909),
            ]
        ).map { ($0.seriesNumber ?? 0) >= 12 ? $0.adding(author: "Brandon Sanderson") : $0 },
        Book.series(
            "Mistborn", "Brandon Sanderson", .fiction, publisher: "Tor Books",
            [("The Final Empire", 2006, 541), ("The Well of Ascension", 2007, 590), ("The Hero of Ages", 2008, 572)]),
        Book.series(
            "The Stormlight Archive", "Brandon Sanderson", .fiction, publisher: "Tor Books",
            [
                ("The Way of Kings", 2010, 1007), ("Words of Radiance", 2014, 1087), ("Oathbringer", 2017, 1248),
                ("Rhythm of War", 2020, 1232), ("Wind and Truth", 2024, 1344),
            ]),
        Book.series(
            "The Kingkiller Chronicle", "Patrick Rothfuss", .fiction, publisher: "DAW Books",
            [("The Name of the Wind", 2007, 662), ("The Wise Man's Fear", 2011, 994)]),
        Book.series(
            "The First Law", "Joe Abercrombie", .fiction, publisher: "Gollancz",
            [
                ("The Blade Itself", 2006, 515), ("Before They Are Hanged", 2007, 441),
                ("Last Argument of Kings", 2008, 536),
            ]),
        Book.series(
            "Gormenghast", "Mervyn Peake", .fiction, publisher: "Eyre & Spottiswoode",
            [("Titus Groan", 1946, 438), ("Gormenghast", 1950, 511), ("Titus Alone", 1959, 263)]),
        Book.series(
            "The Witcher", "Andrzej Sapkowski", .fiction, from: "pl",
            [
                ("Blood of Elves", 1994, 320), ("Time of Contempt", 1995, 331), ("Baptism of Fire", 1996, 343),
                ("The Tower of the Swallow", 1997, 436), ("The Lady of the Lake", 1999, 531),
            ]),
        Book.series(
            "Twilight", "Stephenie Meyer", .youngAdult, publisher: "Little, Brown and Company",
            [("Twilight", 2005, 498), ("New Moon", 2006, 563), ("Eclipse", 2007, 629), ("Breaking Dawn", 2008, 756)]),
        Book.series(
            "Percy Jackson and the Olympians", "Rick Riordan", .juvenileFiction, publisher: "Miramax Books",
            [
                ("The Lightning Thief", 2005, 377), ("The Sea of Monsters", 2006, 279),
                ("The Titan's Curse", 2007, 312),
                ("The Battle of the Labyrinth", 2008, 361), ("The Last Olympian", 2009, 381),
            ]),
        Book.series(
            "A Series of Unfortunate Events", "Lemony Snicket", .juvenileFiction, publisher: "HarperCollins",
            [
                ("The Bad Beginning", 1999, 162), ("The Reptile Room", 1999, 190), ("The Wide Window", 2000, 214),
                ("The Miserable Mill", 2000, 194), ("The Austere Academy", 2000, 221),
                ("The Ersatz Elevator", 2001, 259), ("The Vile Village", 2001, 256),
                ("The Hostile Hospital", 2001, 255), ("The Carnivorous Carnival", 2002, 286),
                ("The Slippery Slope", 2003, 337), ("The Grim Grotto", 2004, 323),
                ("The Penultimate Peril", 2005, 353), ("The End", 2006, 324),
            ]),
        Book.series(
            "The Inheritance Cycle", "Christopher Paolini", .youngAdult,
            [("Eragon", 2002, 509), ("Eldest", 2005, 681), ("Brisingr", 2008, 763), ("Inheritance", 2011, 860)]),
        Book.series(
            "Artemis Fowl", "Eoin Colfer", .juvenileFiction,
            [
                ("Artemis Fowl", 2001, 280), ("The Arctic Incident", 2002, 277), ("The Eternity Code", 2003, 309),
                ("The Opal Deception", 2005, 342), ("The Lost Colony", 2006, 385), ("The Time Paradox", 2008, 390),
                ("The Atlantis Complex", 2010, 368), ("The Last Guardian", 2012, 330),
            ]),
        Book.series(
            "Divergent", "Veronica Roth", .youngAdult, publisher: "Katherine Tegen Books",
            [("Divergent", 2011, 487), ("Insurgent", 2012, 525), ("Allegiant", 2013, 526)]),
        Book.series(
            "The Maze Runner", "James Dashner", .youngAdult, publisher: "Delacorte Press",
            [("The Maze Runner", 2009, 375), ("The Scorch Trials", 2010, 361), ("The Death Cure", 2011, 325)]),
        Book.series(
            "Red Rising", "Pierce Brown", .fiction, publisher: "Del Rey",
            [
                ("Red Rising", 2014, 382), ("Golden Son", 2015, 442), ("Morning Star", 2016, 518),
                ("Iron Gold", 2018, 600), ("Dark Age", 2019, 757), ("Light Bringer", 2023, 688),
            ]),
        Book.series(
            "Outlander", "Diana Gabaldon", .fiction,
            [
                ("Outlander", 1991, 627), ("Dragonfly in Amber", 1992, 743), ("Voyager", 1993, 870),
                ("Drums of Autumn", 1996, 880), ("The Fiery Cross", 2001, 979),
                ("A Breath of Snow and Ashes", 2005, 980), ("An Echo in the Bone", 2009, 820),
                ("Written in My Own Heart's Blood", 2014, 825), ("Go Tell the Bees That I Am Gone", 2021, 912),
            ]),
        Book.series(
            "Anne of Green Gables", "L. M. Montgomery", .juvenileFiction,
            [
                ("Anne of Green Gables", 1908, 429), ("Anne of Avonlea", 1909, 367), ("Anne of the Island", 1915, 326),
                ("Anne's House of Dreams", 1917, 330), ("Rainbow Valley", 1919, 341),
                ("Rilla of Ingleside", 1921, 370), ("Anne of Windy Poplars", 1936, 301),
                ("Anne of Ingleside", 1939, 324),
            ]),
        Book.series(
            "Little House", "Laura Ingalls Wilder", .juvenileFiction, publisher: "Harper & Brothers",
            [
                ("Little House in the Big Woods", 1932, 238), ("Farmer Boy", 1933, 372),
                ("Little House on the Prairie", 1935, 335), ("On the Banks of Plum Creek", 1937, 339),
                ("By the Shores of Silver Lake", 1939, 290), ("The Long Winter", 1940, 334),
                ("Little Town on the Prairie", 1941, 307), ("These Happy Golden Years", 1943, 299),
            ]),
        Book.series(
            "Diary of a Wimpy Kid", "Jeff Kinney", .juvenileFiction, publisher: "Amulet Books",
            [
                ("Diary of a Wimpy Kid", 2007, 217), ("Diary of a Wimpy Kid: Rodrick Rules", 2008, 217),
                ("Diary of a Wimpy Kid: The Last Straw", 2009, 217), ("Diary of a Wimpy Kid: Dog Days", 2009, 217),
                ("Diary of a Wimpy Kid: The Ugly Truth", 2010, 217),
                ("Diary of a Wimpy Kid: Cabin Fever", 2011, 217),
                ("Diary of a Wimpy Kid: The Third Wheel", 2012, 217),
                ("Diary of a Wimpy Kid: Hard Luck", 2013, 217), ("Diary of a Wimpy Kid: The Long Haul", 2014, 217),
                ("Diary of a Wimpy Kid: Old School", 2015, 217), ("Diary of a Wimpy Kid: Double Down", 2016, 217),
                ("Diary of a Wimpy Kid: The Getaway", 2017, 217),
                ("Diary of a Wimpy Kid: The Meltdown", 2018, 217),
                ("Diary of a Wimpy Kid: Wrecking Ball", 2019, 217),
                ("Diary of a Wimpy Kid: The Deep End", 2020, 217),
            ]),
    ]
}
