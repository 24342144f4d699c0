extension Films {
    /// Series and their sequels, in release order: James Bond (the Eon films), The Fast and the
    /// Furious, Pirates of the Caribbean, Transformers, Avatar, the Planet of the Apes films of
    /// 1968 and 2011 on, and the family and comedy series.
    static let franchises: [Film] = [
        .en(646, "Dr. No", "1962-10-05", 25.3, 7.0, 3_010, [.adventure, .action, .thriller]),
        .en(657, "From Russia with Love", "1963-10-10", 22.6, 7.1, 2_520, [.adventure, .action, .thriller]),
        .en(658, "Goldfinger", "1964-09-17", 28.4, 7.4, 3_530, [.adventure, .action, .thriller]),
        .en(660, "Thunderball", "1965-12-11", 20.7, 6.8, 2_210, [.adventure, .action, .thriller]),
        .en(667, "You Only Live Twice", "1967-06-12", 20.2, 6.7, 2_230, [.action, .thriller, .adventure]),
        .en(668, "On Her Majesty's Secret Service", "1969-12-18", 18.5, 6.7, 1_820, [.adventure, .action, .thriller]),
        .en(681, "Diamonds Are Forever", "1971-12-13", 18.9, 6.4, 1_910, [.adventure, .action, .thriller]),
        .en(253, "Live and Let Die", "1973-06-27", 21.3, 6.6, 2_220, [.adventure, .action, .thriller]),
        .en(682, "The Man with the Golden Gun", "1974-12-19", 19.6, 6.5, 1_930, [.adventure, .action, .thriller]),
        .en(691, "The Spy Who Loved Me", "1977-07-07", 20.4, 6.9, 2_010, [.adventure, .action, .thriller]),
        .en(698, "Moonraker", "1979-06-26", 19.8, 6.2, 2_120, [.adventure, .action, .thriller, .sciFi]),
        .en(699, "For Your Eyes Only", "1981-06-24", 18.2, 6.6, 1_810, [.adventure, .action, .thriller]),
        .en(700, "Octopussy", "1983-06-06", 17.9, 6.4, 1_820, [.adventure, .action, .thriller]),
        .en(707, "A View to a Kill", "1985-05-22", 17.5, 6.2, 1_830, [.adventure, .action, .thriller]),
        .en(708, "The Living Daylights", "1987-06-29", 17.1, 6.6, 1_720, [.adventure, .action, .thriller]),
        .en(709, "Licence to Kill", "1989-06-13", 16.8, 6.6, 1_710, [.adventure, .action, .thriller]),
        .en(710, "GoldenEye", "1995-11-16", 28.7, 7.0, 3_420, [.adventure, .action, .thriller]),
        .en(714, "Tomorrow Never Dies", "1997-12-11", 24.3, 6.5, 2_930, [.adventure, .action, .thriller]),
        .en(36643, "The World Is Not Enough", "1999-11-08", 24.1, 6.3, 3_010, [.adventure, .action, .thriller]),
        .en(36669, "Die Another Day", "2002-11-17", 25.6, 6.0, 3_320, [.adventure, .action, .thriller]),
        .en(36557, "Casino Royale", "2006-11-14", 55.2, 7.5, 10_530, [.adventure, .action, .thriller]),
        .en(10764, "Quantum of Solace", "2008-10-29", 35.4, 6.3, 7_020, [.adventure, .action, .thriller, .crime]),
        .en(37724, "Skyfall", "2012-10-25", 50.8, 7.2, 15_530, [.action, .adventure, .thriller]),
        .en(206647, "Spectre", "2015-10-26", 40.3, 6.5, 10_520, [.action, .adventure, .thriller]),
        .en(370172, "No Time to Die", "2021-09-29", 45.1, 7.2, 6_030, [.adventure, .action, .thriller]),

        .en(9799, "The Fast and the Furious", "2001-06-22", 31.8, 6.9, 10_520, [.action, .crime, .thriller]),
        .en(584, "2 Fast 2 Furious", "2003-06-05", 22.1, 6.5, 6_830, [.action, .crime, .thriller]),
        .en(
            9615, "The Fast and the Furious: Tokyo Drift", "2006-06-03", 26.4, 6.5, 6_520, [.action, .crime, .thriller]),
        .en(13804, "Fast & Furious", "2009-04-02", 38.2, 6.7, 7_104, [.action, .crime, .thriller]),
        .en(51497, "Fast Five", "2011-04-20", 45.3, 7.2, 9_010, [.action, .thriller, .crime]),
        .en(82992, "Fast & Furious 6", "2013-05-21", 60.5, 6.8, 10_433, [.action, .thriller, .crime]),
        .en(168259, "Furious 7", "2015-04-01", 50.7, 7.2, 10_520, [.action, .thriller, .crime]),
        .en(337339, "The Fate of the Furious", "2017-04-12", 45.2, 6.9, 10_030, [.action, .crime, .thriller]),
        .en(
            384018, "Fast & Furious Presents: Hobbs & Shaw", "2019-08-01", 39.6, 6.8, 6_520,
            [.action, .adventure, .comedy]),
        .en(385128, "F9", "2021-05-19", 48.2, 7.2, 5_530, [.action, .crime, .thriller], also: ["Fast & Furious 9"]),
        .en(385687, "Fast X", "2023-05-17", 70.1, 7.2, 5_010, [.action, .crime, .thriller]),

        .en(
            22, "Pirates of the Caribbean: The Curse of the Black Pearl", "2003-07-09", 70.4, 7.8, 20_030,
            [.adventure, .fantasy, .action]),
        .en(
            58, "Pirates of the Caribbean: Dead Man's Chest", "2006-07-06", 55.1, 7.3, 15_520,
            [.adventure, .fantasy, .action]),
        .en(
            285, "Pirates of the Caribbean: At World's End", "2007-05-19", 50.3, 7.3, 14_030,
            [.adventure, .fantasy, .action]),
        .en(
            1865, "Pirates of the Caribbean: On Stranger Tides", "2011-05-15", 45.7, 6.5, 13_520,
            [.adventure, .action, .fantasy]),
        .en(
            166426, "Pirates of the Caribbean: Dead Men Tell No Tales", "2017-05-23", 45.2, 6.6, 13_010,
            [.adventure, .action, .fantasy]),

        .en(1858, "Transformers", "2007-06-27", 45.6, 6.8, 11_020, [.adventure, .sciFi, .action]),
        .en(
            8373, "Transformers: Revenge of the Fallen", "2009-06-19", 35.2, 6.2, 8_230, [.sciFi, .action, .adventure]),
        .en(38356, "Transformers: Dark of the Moon", "2011-06-28", 35.8, 6.2, 8_010, [.action, .sciFi, .adventure]),
        .en(91314, "Transformers: Age of Extinction", "2014-06-25", 35.4, 5.9, 7_520, [.sciFi, .action, .adventure]),
        .en(335988, "Transformers: The Last Knight", "2017-06-16", 30.1, 5.2, 5_010, [.action, .sciFi, .adventure]),
        .en(424783, "Bumblebee", "2018-12-15", 35.6, 6.7, 6_520, [.action, .adventure, .sciFi]),

        .en(19995, "Avatar", "2009-12-15", 100.4, 7.6, 32_040, [.action, .adventure, .fantasy, .sciFi]),
        .en(76600, "Avatar: The Way of Water", "2022-12-14", 120.7, 7.6, 12_020, [.sciFi, .adventure, .action]),

        .en(871, "Planet of the Apes", "1968-02-07", 30.2, 7.7, 3_920, [.adventure, .sciFi, .mystery]),
        .en(
            61791, "Rise of the Planet of the Apes", "2011-08-03", 40.5, 7.3, 11_530,
            [.thriller, .action, .drama, .sciFi]),
        .en(
            119450, "Dawn of the Planet of the Apes", "2014-06-26", 40.1, 7.3, 10_520,
            [.sciFi, .action, .drama, .thriller]),
        .en(281338, "War for the Planet of the Apes", "2017-07-11", 40.6, 7.2, 8_530, [.drama, .sciFi, .war]),
        .en(
            653346, "Kingdom of the Planet of the Apes", "2024-05-08", 80.3, 6.8, 2_030, [.sciFi, .adventure, .action]),

        .en(771, "Home Alone", "1990-11-16", 60.2, 7.4, 11_030, [.comedy, .family]),
        .en(772, "Home Alone 2: Lost in New York", "1992-11-19", 45.7, 6.7, 7_520, [.comedy, .family, .adventure]),
        .en(620, "Ghostbusters", "1984-06-08", 40.3, 7.5, 8_010, [.comedy, .fantasy]),
        .en(2978, "Ghostbusters II", "1989-06-16", 25.4, 6.5, 4_020, [.comedy, .fantasy]),
        .en(607, "Men in Black", "1997-07-02", 45.8, 7.2, 13_020, [.action, .adventure, .comedy, .sciFi]),
        .en(608, "Men in Black II", "2002-07-03", 35.3, 6.3, 9_010, [.action, .adventure, .comedy, .sciFi]),
        .en(41154, "Men in Black 3", "2012-05-23", 35.9, 6.5, 10_530, [.action, .comedy, .sciFi]),
        .en(941, "Lethal Weapon", "1987-03-06", 30.5, 7.2, 4_320, [.adventure, .action, .comedy, .thriller, .crime]),
        .en(942, "Lethal Weapon 2", "1989-07-07", 25.2, 7.0, 3_230, [.adventure, .action, .comedy, .thriller, .crime]),
        .en(943, "Lethal Weapon 3", "1992-05-15", 22.8, 6.7, 2_720, [.adventure, .action, .comedy, .thriller, .crime]),
        .en(944, "Lethal Weapon 4", "1998-07-10", 22.1, 6.6, 2_620, [.adventure, .action, .comedy, .thriller, .crime]),
        .en(24, "Kill Bill: Vol. 1", "2003-10-10", 55.3, 8.0, 17_030, [.action, .crime]),
        .en(393, "Kill Bill: Vol. 2", "2004-04-16", 45.6, 7.9, 12_520, [.action, .crime, .thriller]),
        .en(98, "Gladiator", "2000-05-01", 75.2, 8.2, 18_530, [.action, .drama, .adventure]),
        .en(558449, "Gladiator II", "2024-11-05", 95.6, 6.8, 3_020, [.action, .adventure, .drama]),
        .en(744, "Top Gun", "1986-05-16", 40.7, 7.1, 8_520, [.action, .drama]),
        .en(361743, "Top Gun: Maverick", "2022-05-21", 70.3, 8.2, 9_030, [.action, .drama]),
        .en(8844, "Jumanji", "1995-12-15", 40.6, 7.2, 10_520, [.adventure, .fantasy, .family]),
        .en(
            353486, "Jumanji: Welcome to the Jungle", "2017-12-09", 45.2, 6.8, 13_020,
            [.adventure, .action, .comedy, .fantasy]),
        .en(4011, "Beetlejuice", "1988-03-29", 35.4, 7.4, 7_020, [.fantasy, .comedy]),
        .en(nil, "Beetlejuice Beetlejuice", "2024-09-04", 90.8, 7.0, 2_320, [.comedy, .fantasy, .horror]),
        .en(664, "Twister", "1996-05-10", 30.1, 6.5, 4_020, [.action, .adventure, .drama]),
        .en(718821, "Twisters", "2024-07-10", 85.3, 7.0, 2_030, [.action, .adventure, .thriller]),
        .en(116149, "Paddington", "2014-11-24", 30.7, 7.2, 5_010, [.comedy, .family]),
        .en(346648, "Paddington 2", "2017-11-09", 28.2, 7.4, 2_920, [.comedy, .family, .adventure]),
        .en(nil, "Paddington in Peru", "2024-11-08", 60.5, 7.0, 420, [.family, .comedy, .adventure]),
        .en(447332, "A Quiet Place", "2018-04-03", 45.3, 7.4, 14_020, [.drama, .horror, .sciFi]),
        .en(520763, "A Quiet Place Part II", "2021-05-21", 40.6, 7.5, 5_530, [.sciFi, .thriller, .horror]),
        .en(nil, "A Quiet Place: Day One", "2024-06-26", 60.2, 6.9, 2_010, [.horror, .sciFi, .thriller]),
        .en(546554, "Knives Out", "2019-11-27", 40.8, 7.8, 12_520, [.comedy, .crime, .mystery]),
        .en(661374, "Glass Onion: A Knives Out Mystery", "2022-11-23", 35.4, 7.0, 6_030, [.comedy, .crime, .mystery]),
        .en(346364, "It", "2017-09-06", 55.2, 7.2, 19_010, [.horror, .fantasy]),
        .en(474350, "It Chapter Two", "2019-09-04", 45.7, 6.9, 8_530, [.horror, .fantasy]),
    ]
}
