extension Films {
    /// The great sagas, every film in release order: Star Wars, The Godfather, Middle-earth,
    /// the Wizarding World, Indiana Jones, Back to the Future, The Matrix, Alien, Blade Runner,
    /// The Terminator, Rocky and Creed, Mission: Impossible, Jurassic Park, Dune, The Hunger
    /// Games, John Wick, Twilight, Mad Max and Die Hard.
    static let sagas: [Film] = [
        .en(
            11, "Star Wars", "1977-05-25", 85.2, 8.2, 21_040, [.adventure, .action, .sciFi],
            also: ["Star Wars: Episode IV - A New Hope"]),
        .en(
            1891, "The Empire Strikes Back", "1980-05-20", 72.4, 8.4, 17_520, [.adventure, .action, .sciFi],
            also: ["Star Wars: Episode V - The Empire Strikes Back"]),
        .en(
            1892, "Return of the Jedi", "1983-05-25", 39.8, 7.9, 16_110, [.adventure, .action, .sciFi],
            also: ["Star Wars: Episode VI - Return of the Jedi"]),
        .en(
            1893, "Star Wars: Episode I - The Phantom Menace", "1999-05-19", 35.3, 6.5, 15_020,
            [.adventure, .action, .sciFi]),
        .en(
            1894, "Star Wars: Episode II - Attack of the Clones", "2002-05-15", 31.1, 6.5, 13_540,
            [.adventure, .action, .sciFi]),
        .en(
            1895, "Star Wars: Episode III - Revenge of the Sith", "2005-05-17", 48.1, 7.4, 14_480,
            [.adventure, .action, .sciFi]),
        .en(140607, "Star Wars: The Force Awakens", "2015-12-15", 58.9, 7.3, 19_530, [.adventure, .action, .sciFi]),
        .en(330459, "Rogue One: A Star Wars Story", "2016-12-14", 37.5, 7.5, 16_020, [.action, .adventure, .sciFi]),
        .en(181808, "Star Wars: The Last Jedi", "2017-12-13", 36.9, 6.8, 15_010, [.adventure, .action, .sciFi]),
        .en(348350, "Solo: A Star Wars Story", "2018-05-15", 28.4, 6.6, 8_530, [.action, .adventure, .sciFi]),
        .en(
            181812, "Star Wars: The Rise of Skywalker", "2019-12-18", 38.2, 6.4, 10_020, [.adventure, .action, .sciFi]),

        .en(238, "The Godfather", "1972-03-14", 112.4, 8.7, 21_530, [.drama, .crime]),
        .en(240, "The Godfather Part II", "1974-12-20", 70.6, 8.6, 12_750, [.drama, .crime]),
        .en(242, "The Godfather Part III", "1990-12-25", 45.2, 7.4, 6_040, [.crime, .drama, .thriller]),

        .en(
            120, "The Lord of the Rings: The Fellowship of the Ring", "2001-12-18", 110.3, 8.4, 25_120,
            [.adventure, .fantasy, .action]),
        .en(
            121, "The Lord of the Rings: The Two Towers", "2002-12-18", 90.5, 8.4, 22_040,
            [.adventure, .fantasy, .action]),
        .en(
            122, "The Lord of the Rings: The Return of the King", "2003-12-17", 100.2, 8.5, 24_050,
            [.adventure, .fantasy, .action]),
        .en(
            49051, "The Hobbit: An Unexpected Journey", "2012-12-12", 70.8, 7.3, 18_530,
            [.adventure, .fantasy, .action]),
        .en(
            57158, "The Hobbit: The Desolation of Smaug", "2013-12-11", 65.1, 7.6, 13_520,
            [.adventure, .fantasy, .action]),
        .en(
            122917, "The Hobbit: The Battle of the Five Armies", "2014-12-10", 75.4, 7.3, 14_030,
            [.action, .adventure, .fantasy]),

        .en(
            671, "Harry Potter and the Philosopher's Stone", "2001-11-16", 180.6, 7.9, 27_510,
            [.adventure, .fantasy, .family], also: ["Harry Potter and the Sorcerer's Stone"]),
        .en(
            672, "Harry Potter and the Chamber of Secrets", "2002-11-13", 120.2, 7.7, 22_040,
            [.adventure, .fantasy, .family]),
        .en(673, "Harry Potter and the Prisoner of Azkaban", "2004-05-31", 115.7, 8.0, 22_030, [.adventure, .fantasy]),
        .en(674, "Harry Potter and the Goblet of Fire", "2005-11-16", 110.9, 7.8, 21_020, [.adventure, .fantasy]),
        .en(
            675, "Harry Potter and the Order of the Phoenix", "2007-06-28", 105.1, 7.7, 19_040, [.adventure, .fantasy]),
        .en(767, "Harry Potter and the Half-Blood Prince", "2009-07-07", 100.5, 7.7, 18_520, [.adventure, .fantasy]),
        .en(
            12444, "Harry Potter and the Deathly Hallows: Part 1", "2010-11-17", 105.3, 7.8, 18_530,
            [.adventure, .fantasy]),
        .en(
            12445, "Harry Potter and the Deathly Hallows: Part 2", "2011-07-12", 125.8, 8.1, 21_040,
            [.fantasy, .adventure]),
        .en(
            259316, "Fantastic Beasts and Where to Find Them", "2016-11-16", 60.2, 7.3, 19_020, [.adventure, .fantasy]),
        .en(
            338952, "Fantastic Beasts: The Crimes of Grindelwald", "2018-11-14", 45.6, 6.8, 13_010,
            [.adventure, .fantasy]),
        .en(
            338953, "Fantastic Beasts: The Secrets of Dumbledore", "2022-04-06", 40.1, 6.7, 4_530,
            [.fantasy, .adventure]),

        .en(
            85, "Raiders of the Lost Ark", "1981-06-12", 50.3, 7.9, 12_540, [.adventure, .action],
            also: ["Indiana Jones and the Raiders of the Lost Ark"]),
        .en(87, "Indiana Jones and the Temple of Doom", "1984-05-23", 35.6, 7.3, 8_720, [.adventure, .action]),
        .en(89, "Indiana Jones and the Last Crusade", "1989-05-24", 40.2, 7.8, 10_530, [.adventure, .action]),
        .en(
            217, "Indiana Jones and the Kingdom of the Crystal Skull", "2008-05-21", 30.5, 5.9, 7_540,
            [.adventure, .action]),
        .en(335977, "Indiana Jones and the Dial of Destiny", "2023-06-28", 45.9, 6.6, 3_020, [.adventure, .action]),

        .en(105, "Back to the Future", "1985-07-03", 60.4, 8.3, 20_030, [.adventure, .comedy, .sciFi]),
        .en(165, "Back to the Future Part II", "1989-11-22", 40.7, 7.8, 13_020, [.adventure, .comedy, .sciFi]),
        .en(196, "Back to the Future Part III", "1990-05-25", 35.1, 7.5, 11_010, [.adventure, .comedy, .sciFi]),

        .en(603, "The Matrix", "1999-03-30", 65.8, 8.2, 25_736, [.action, .sciFi]),
        .en(604, "The Matrix Reloaded", "2003-05-15", 40.3, 7.0, 11_020, [.adventure, .action, .thriller, .sciFi]),
        .en(605, "The Matrix Revolutions", "2003-11-05", 35.5, 6.7, 9_730, [.adventure, .action, .thriller, .sciFi]),
        .en(624860, "The Matrix Resurrections", "2021-12-16", 30.2, 6.4, 6_010, [.sciFi, .action, .adventure]),

        .en(348, "Alien", "1979-05-25", 60.5, 8.2, 15_030, [.horror, .sciFi]),
        .en(679, "Aliens", "1986-07-18", 45.2, 7.9, 10_020, [.action, .thriller, .sciFi]),
        .en(8077, "Alien³", "1992-05-22", 30.4, 6.4, 5_010, [.sciFi, .action, .horror]),
        .en(8078, "Alien Resurrection", "1997-11-12", 28.6, 6.2, 4_520, [.sciFi, .horror, .action]),
        .en(70981, "Prometheus", "2012-05-30", 45.1, 6.5, 12_030, [.horror, .sciFi, .adventure, .mystery]),
        .en(126889, "Alien: Covenant", "2017-05-09", 40.7, 6.1, 8_540, [.horror, .sciFi, .thriller]),
        .en(945961, "Alien: Romulus", "2024-08-13", 120.3, 7.1, 3_510, [.sciFi, .horror]),

        .en(78, "Blade Runner", "1982-06-25", 55.3, 7.9, 14_020, [.sciFi, .drama, .thriller]),
        .en(335984, "Blade Runner 2049", "2017-10-04", 60.8, 7.6, 13_530, [.sciFi, .drama]),

        .en(218, "The Terminator", "1984-10-26", 50.2, 7.7, 13_010, [.action, .thriller, .sciFi]),
        .en(280, "Terminator 2: Judgment Day", "1991-07-03", 55.6, 8.1, 12_520, [.action, .thriller, .sciFi]),
        .en(296, "Terminator 3: Rise of the Machines", "2003-07-02", 30.1, 6.1, 6_920, [.action, .thriller, .sciFi]),
        .en(534, "Terminator Salvation", "2009-05-20", 28.4, 6.0, 6_530, [.action, .sciFi, .thriller]),
        .en(87101, "Terminator Genisys", "2015-06-23", 35.2, 5.9, 9_010, [.sciFi, .action, .thriller, .adventure]),
        .en(290859, "Terminator: Dark Fate", "2019-10-23", 30.6, 6.4, 4_520, [.action, .sciFi]),

        .en(1366, "Rocky", "1976-11-21", 45.3, 7.8, 7_030, [.drama]),
        .en(1367, "Rocky II", "1979-06-15", 30.1, 7.1, 4_010, [.drama]),
        .en(1371, "Rocky III", "1982-05-28", 28.5, 6.8, 3_720, [.drama]),
        .en(1374, "Rocky IV", "1985-11-21", 32.4, 6.9, 4_330, [.drama]),
        .en(1375, "Rocky V", "1990-11-16", 22.7, 5.9, 2_710, [.drama]),
        .en(1246, "Rocky Balboa", "2006-12-20", 25.2, 6.6, 3_420, [.drama]),
        .en(312221, "Creed", "2015-11-25", 35.6, 7.3, 7_520, [.drama]),
        .en(480530, "Creed II", "2018-11-21", 30.3, 7.0, 4_530, [.drama]),
        .en(677179, "Creed III", "2023-03-01", 35.8, 7.0, 2_610, [.drama, .action]),

        .en(954, "Mission: Impossible", "1996-05-22", 40.5, 7.0, 8_520, [.adventure, .action, .thriller]),
        .en(955, "Mission: Impossible II", "2000-05-24", 30.2, 6.1, 7_010, [.adventure, .action, .thriller]),
        .en(956, "Mission: Impossible III", "2006-05-03", 32.6, 6.7, 7_030, [.adventure, .action, .thriller]),
        .en(
            56292, "Mission: Impossible - Ghost Protocol", "2011-12-07", 40.3, 7.1, 10_040,
            [.action, .thriller, .adventure]),
        .en(177677, "Mission: Impossible - Rogue Nation", "2015-07-23", 38.9, 7.2, 9_020, [.action, .adventure]),
        .en(353081, "Mission: Impossible - Fallout", "2018-07-13", 42.1, 7.4, 8_530, [.action, .adventure]),
        .en(
            575264, "Mission: Impossible - Dead Reckoning Part One", "2023-07-08", 60.4, 7.5, 3_520,
            [.action, .thriller]),
        .en(
            575265, "Mission: Impossible - The Final Reckoning", "2025-05-17", 150.2, 7.2, 1_510,
            [.action, .adventure, .thriller]),

        .en(329, "Jurassic Park", "1993-06-11", 60.3, 7.9, 16_540, [.adventure, .sciFi]),
        .en(330, "The Lost World: Jurassic Park", "1997-05-23", 35.8, 6.6, 9_010, [.adventure, .action, .sciFi]),
        .en(331, "Jurassic Park III", "2001-07-18", 30.2, 6.2, 7_720, [.adventure, .action, .sciFi]),
        .en(135397, "Jurassic World", "2015-06-06", 50.6, 6.7, 20_030, [.action, .adventure, .sciFi, .thriller]),
        .en(351286, "Jurassic World: Fallen Kingdom", "2018-06-06", 45.2, 6.5, 12_040, [.action, .adventure, .sciFi]),
        .en(507086, "Jurassic World Dominion", "2022-06-01", 50.9, 6.6, 6_020, [.adventure, .action, .sciFi]),
        .en(nil, "Jurassic World Rebirth", "2025-07-01", 250.4, 6.4, 1_520, [.sciFi, .adventure, .action]),

        .en(841, "Dune", "1984-12-14", 19.5, 6.2, 2_730, [.action, .sciFi, .adventure]),
        .en(438631, "Dune", "2021-09-15", 110.5, 7.8, 12_040, [.sciFi, .adventure]),
        .en(693134, "Dune: Part Two", "2024-02-27", 200.3, 8.1, 6_530, [.sciFi, .adventure]),

        .en(70160, "The Hunger Games", "2012-03-12", 60.4, 7.2, 22_020, [.sciFi, .adventure, .fantasy]),
        .en(101299, "The Hunger Games: Catching Fire", "2013-11-15", 55.1, 7.4, 17_530, [.adventure, .action, .sciFi]),
        .en(
            131631, "The Hunger Games: Mockingjay - Part 1", "2014-11-18", 45.7, 6.8, 15_020,
            [.sciFi, .adventure, .thriller]),
        .en(
            131634, "The Hunger Games: Mockingjay - Part 2", "2015-11-18", 45.3, 6.9, 13_010,
            [.action, .adventure, .sciFi]),
        .en(
            695721, "The Hunger Games: The Ballad of Songbirds & Snakes", "2023-11-15", 60.2, 7.2, 3_010,
            [.drama, .sciFi, .action]),

        .en(245891, "John Wick", "2014-10-22", 55.3, 7.4, 19_020, [.action, .thriller]),
        .en(324552, "John Wick: Chapter 2", "2017-02-08", 45.6, 7.3, 13_520, [.action, .thriller, .crime]),
        .en(
            458156, "John Wick: Chapter 3 - Parabellum", "2019-05-15", 50.1, 7.4, 10_030, [.action, .thriller, .crime]),
        .en(603692, "John Wick: Chapter 4", "2023-03-22", 70.4, 7.7, 6_020, [.action, .thriller, .crime]),

        .en(8966, "Twilight", "2008-11-20", 55.2, 6.3, 13_020, [.fantasy, .drama, .romance]),
        .en(
            18239, "The Twilight Saga: New Moon", "2009-11-18", 45.6, 6.0, 9_010,
            [.adventure, .fantasy, .drama, .romance]),
        .en(
            24021, "The Twilight Saga: Eclipse", "2010-06-23", 45.1, 6.2, 8_520,
            [.adventure, .fantasy, .drama, .romance]),
        .en(
            50619, "The Twilight Saga: Breaking Dawn - Part 1", "2011-11-16", 45.8, 6.2, 8_230,
            [.adventure, .fantasy, .drama, .romance]),
        .en(
            50620, "The Twilight Saga: Breaking Dawn - Part 2", "2012-11-13", 50.4, 6.5, 8_510,
            [.adventure, .fantasy, .drama, .romance]),

        .en(9659, "Mad Max", "1979-04-12", 30.5, 6.7, 4_510, [.adventure, .action, .thriller, .sciFi]),
        .en(
            8810, "Mad Max 2", "1981-12-24", 28.3, 7.3, 4_330, [.adventure, .action, .thriller, .sciFi],
            also: ["The Road Warrior"]),
        .en(9355, "Mad Max Beyond Thunderdome", "1985-06-29", 22.1, 6.1, 2_510, [.adventure, .action, .sciFi]),
        .en(76341, "Mad Max: Fury Road", "2015-05-13", 60.7, 7.6, 23_020, [.action, .adventure, .sciFi]),
        .en(786892, "Furiosa: A Mad Max Saga", "2024-05-22", 70.2, 7.5, 3_530, [.action, .adventure, .sciFi]),

        .en(562, "Die Hard", "1988-07-15", 45.6, 7.8, 11_520, [.action, .thriller]),
        .en(1573, "Die Hard 2", "1990-07-02", 30.2, 6.9, 5_920, [.action, .thriller]),
        .en(1572, "Die Hard with a Vengeance", "1995-05-19", 32.8, 7.0, 6_320, [.action, .thriller]),
        .en(1571, "Live Free or Die Hard", "2007-06-20", 30.4, 6.6, 6_520, [.action, .thriller]),
        .en(47964, "A Good Day to Die Hard", "2013-02-06", 28.9, 5.3, 5_420, [.action, .thriller]),
    ]
}
