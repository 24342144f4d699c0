extension Films {
    /// Superhero films, each series in release order: the Marvel Cinematic Universe, Spider-Man
    /// (Raimi, Webb and the Spider-Verse), X-Men, Deadpool, Batman (Burton, Nolan, Reeves) and
    /// DC's films from Man of Steel on.
    static let superheroes: [Film] = [
        .en(1726, "Iron Man", "2008-04-30", 60.3, 7.6, 26_020, [.action, .sciFi, .adventure]),
        .en(1724, "The Incredible Hulk", "2008-06-12", 35.2, 6.2, 11_530, [.sciFi, .action, .adventure]),
        .en(10138, "Iron Man 2", "2010-04-28", 45.6, 6.8, 20_520, [.adventure, .action, .sciFi]),
        .en(10195, "Thor", "2011-04-21", 45.1, 6.8, 21_030, [.adventure, .fantasy, .action]),
        .en(
            1771, "Captain America: The First Avenger", "2011-07-22", 45.8, 7.0, 21_020, [.action, .adventure, .sciFi]),
        .en(24428, "The Avengers", "2012-04-25", 80.4, 7.7, 31_530, [.sciFi, .action, .adventure]),
        .en(68721, "Iron Man 3", "2013-04-18", 50.2, 6.9, 22_520, [.action, .adventure, .sciFi]),
        .en(76338, "Thor: The Dark World", "2013-10-29", 40.7, 6.5, 17_530, [.action, .adventure, .fantasy]),
        .en(
            100402, "Captain America: The Winter Soldier", "2014-03-20", 50.3, 7.7, 19_020,
            [.action, .adventure, .sciFi]),
        .en(118340, "Guardians of the Galaxy", "2014-07-30", 60.6, 7.9, 27_530, [.action, .sciFi, .adventure]),
        .en(99861, "Avengers: Age of Ultron", "2015-04-22", 60.1, 7.3, 23_020, [.action, .adventure, .sciFi]),
        .en(102899, "Ant-Man", "2015-07-14", 45.5, 7.1, 19_020, [.sciFi, .action, .adventure]),
        .en(271110, "Captain America: Civil War", "2016-04-27", 55.8, 7.4, 22_530, [.adventure, .action, .sciFi]),
        .en(284052, "Doctor Strange", "2016-10-25", 50.4, 7.4, 21_520, [.action, .adventure, .fantasy]),
        .en(
            283995, "Guardians of the Galaxy Vol. 2", "2017-04-19", 50.7, 7.6, 21_030,
            [.adventure, .action, .comedy, .sciFi]),
        .en(315635, "Spider-Man: Homecoming", "2017-07-05", 55.3, 7.3, 21_520, [.action, .adventure, .sciFi]),
        .en(284053, "Thor: Ragnarok", "2017-10-25", 60.2, 7.6, 20_530, [.action, .adventure, .sciFi]),
        .en(284054, "Black Panther", "2018-02-13", 55.9, 7.4, 22_520, [.action, .adventure, .sciFi]),
        .en(299536, "Avengers: Infinity War", "2018-04-25", 110.6, 8.2, 30_020, [.adventure, .action, .sciFi]),
        .en(363088, "Ant-Man and the Wasp", "2018-07-04", 40.3, 7.0, 14_030, [.action, .adventure, .sciFi]),
        .en(299537, "Captain Marvel", "2019-03-06", 50.5, 6.8, 16_010, [.action, .adventure, .sciFi]),
        .en(299534, "Avengers: Endgame", "2019-04-24", 105.1, 8.2, 26_530, [.adventure, .sciFi, .action]),
        .en(429617, "Spider-Man: Far From Home", "2019-06-28", 55.6, 7.4, 16_020, [.action, .adventure, .sciFi]),
        .en(497698, "Black Widow", "2021-07-07", 50.2, 7.2, 10_510, [.action, .adventure, .sciFi]),
        .en(
            566525, "Shang-Chi and the Legend of the Ten Rings", "2021-09-01", 45.7, 7.5, 9_020,
            [.action, .adventure, .fantasy]),
        .en(524434, "Eternals", "2021-11-03", 40.4, 6.9, 8_520, [.sciFi, .fantasy, .adventure]),
        .en(634649, "Spider-Man: No Way Home", "2021-12-15", 120.9, 7.9, 20_530, [.action, .adventure, .sciFi]),
        .en(
            453395, "Doctor Strange in the Multiverse of Madness", "2022-05-04", 60.3, 7.3, 9_010,
            [.fantasy, .action, .adventure]),
        .en(616037, "Thor: Love and Thunder", "2022-07-06", 55.8, 6.5, 7_530, [.fantasy, .action, .comedy]),
        .en(505642, "Black Panther: Wakanda Forever", "2022-11-09", 50.1, 7.1, 6_020, [.action, .adventure, .sciFi]),
        .en(
            640146, "Ant-Man and the Wasp: Quantumania", "2023-02-15", 50.6, 6.2, 4_530, [.action, .adventure, .sciFi]),
        .en(447365, "Guardians of the Galaxy Vol. 3", "2023-05-03", 70.2, 7.9, 6_530, [.sciFi, .adventure, .action]),
        .en(609681, "The Marvels", "2023-11-08", 50.4, 6.2, 2_520, [.sciFi, .adventure, .action]),
        .en(533535, "Deadpool & Wolverine", "2024-07-24", 180.7, 7.6, 6_520, [.action, .comedy, .sciFi]),
        .en(nil, "Captain America: Brave New World", "2025-02-12", 150.3, 6.1, 2_010, [.action, .thriller, .sciFi]),
        .en(nil, "Thunderbolts*", "2025-04-30", 140.6, 7.3, 1_820, [.action, .sciFi, .adventure]),
        .en(
            nil, "The Fantastic Four: First Steps", "2025-07-23", 130.2, 7.2, 1_210,
            [.sciFi, .adventure, .action]),

        .en(557, "Spider-Man", "2002-05-01", 60.1, 7.3, 19_030, [.fantasy, .action]),
        .en(558, "Spider-Man 2", "2004-06-25", 50.4, 7.2, 15_020, [.action, .adventure, .fantasy]),
        .en(559, "Spider-Man 3", "2007-05-01", 45.3, 6.4, 14_030, [.fantasy, .action, .adventure]),
        .en(1930, "The Amazing Spider-Man", "2012-06-23", 45.7, 6.7, 18_020, [.action, .adventure, .fantasy]),
        .en(102382, "The Amazing Spider-Man 2", "2014-04-16", 40.2, 6.5, 13_520, [.action, .adventure, .fantasy]),
        .en(
            324857, "Spider-Man: Into the Spider-Verse", "2018-12-06", 70.5, 8.4, 15_530,
            [.animation, .action, .adventure, .sciFi]),
        .en(
            569094, "Spider-Man: Across the Spider-Verse", "2023-05-31", 80.3, 8.4, 7_020,
            [.animation, .action, .adventure, .sciFi]),

        .en(36657, "X-Men", "2000-07-13", 40.2, 7.0, 11_030, [.adventure, .action, .sciFi]),
        .en(36658, "X2", "2003-04-24", 35.6, 6.9, 8_520, [.adventure, .action, .sciFi], also: ["X-Men 2"]),
        .en(36668, "X-Men: The Last Stand", "2006-05-24", 35.1, 6.3, 8_530, [.adventure, .action, .sciFi]),
        .en(49538, "X-Men: First Class", "2011-05-24", 40.7, 7.3, 12_520, [.action, .sciFi, .adventure]),
        .en(127585, "X-Men: Days of Future Past", "2014-05-15", 45.3, 7.5, 15_020, [.action, .adventure, .sciFi]),
        .en(246655, "X-Men: Apocalypse", "2016-05-18", 40.9, 6.5, 12_030, [.action, .adventure, .sciFi]),
        .en(263115, "Logan", "2017-02-28", 55.4, 7.8, 19_030, [.action, .drama, .sciFi]),
        .en(293660, "Deadpool", "2016-02-09", 70.2, 7.6, 30_520, [.action, .adventure, .comedy]),
        .en(383498, "Deadpool 2", "2018-05-15", 55.8, 7.5, 17_530, [.action, .comedy, .adventure]),

        .en(268, "Batman", "1989-06-21", 35.5, 7.2, 7_530, [.fantasy, .action, .crime]),
        .en(364, "Batman Returns", "1992-06-19", 30.3, 6.9, 6_020, [.action, .fantasy]),
        .en(272, "Batman Begins", "2005-06-10", 55.9, 7.7, 21_030, [.action, .crime, .drama]),
        .en(155, "The Dark Knight", "2008-07-16", 120.4, 8.5, 33_020, [.drama, .action, .crime, .thriller]),
        .en(49026, "The Dark Knight Rises", "2012-07-16", 60.7, 7.8, 22_530, [.action, .crime, .drama, .thriller]),
        .en(414906, "The Batman", "2022-03-01", 80.2, 7.7, 10_530, [.crime, .mystery, .thriller]),
        .en(475557, "Joker", "2019-10-01", 90.6, 8.1, 25_520, [.crime, .thriller, .drama]),
        .en(nil, "Joker: Folie à Deux", "2024-10-01", 60.4, 5.6, 2_030, [.drama, .crime, .thriller]),
        .en(49521, "Man of Steel", "2013-06-12", 45.1, 6.6, 14_530, [.action, .adventure, .sciFi]),
        .en(
            209112, "Batman v Superman: Dawn of Justice", "2016-03-23", 45.6, 5.9, 17_520,
            [.action, .adventure, .fantasy]),
        .en(297761, "Suicide Squad", "2016-08-03", 45.3, 5.9, 20_030, [.action, .adventure, .fantasy]),
        .en(297762, "Wonder Woman", "2017-05-30", 50.8, 7.2, 19_520, [.action, .adventure, .fantasy]),
        .en(141052, "Justice League", "2017-11-15", 40.2, 6.1, 12_530, [.action, .adventure, .sciFi]),
        .en(297802, "Aquaman", "2018-12-07", 45.9, 6.9, 13_520, [.action, .adventure, .fantasy]),
        .en(nil, "Superman", "2025-07-09", 180.3, 7.5, 2_020, [.sciFi, .adventure, .action]),
    ]
}
