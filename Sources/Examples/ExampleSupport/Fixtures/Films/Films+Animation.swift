extension Films {
    /// Animated films in English: Disney, Pixar, DreamWorks, Illumination, Aardman and Laika,
    /// every film of their series in release order. (The Disney classics before 1970 are in
    /// the classics table; anime and other animation in its own language in the world table.)
    static let animation: [Film] = [
        .en(862, "Toy Story", "1995-11-22", 90.4, 8.0, 18_030, [.animation, .adventure, .family, .comedy]),
        .en(863, "Toy Story 2", "1999-10-30", 60.2, 7.6, 13_530, [.animation, .comedy, .family]),
        .en(10193, "Toy Story 3", "2010-06-16", 60.7, 7.8, 15_030, [.animation, .family, .comedy]),
        .en(301528, "Toy Story 4", "2019-06-19", 55.3, 7.5, 10_030, [.family, .adventure, .animation, .comedy]),
        .en(808, "Shrek", "2001-05-18", 80.6, 7.7, 17_030, [.animation, .comedy, .fantasy, .adventure, .family]),
        .en(809, "Shrek 2", "2004-05-19", 60.1, 7.3, 12_530, [.animation, .family, .comedy, .fantasy, .adventure]),
        .en(
            810, "Shrek the Third", "2007-05-17", 45.8, 6.3, 8_030,
            [.fantasy, .adventure, .animation, .comedy, .family]),
        .en(
            10192, "Shrek Forever After", "2010-05-16", 45.2, 6.4, 7_530,
            [.comedy, .adventure, .fantasy, .animation, .family]),
        .en(20352, "Despicable Me", "2010-07-08", 60.4, 7.2, 15_530, [.family, .animation, .comedy]),
        .en(93456, "Despicable Me 2", "2013-06-25", 55.9, 7.0, 11_530, [.animation, .comedy, .family]),
        .en(324852, "Despicable Me 3", "2017-06-15", 45.3, 6.5, 8_030, [.family, .animation, .adventure, .comedy]),
        .en(519182, "Despicable Me 4", "2024-06-20", 150.6, 7.1, 2_530, [.animation, .family, .comedy, .action]),
        .en(211672, "Minions", "2015-06-17", 55.2, 6.4, 10_530, [.family, .animation, .adventure, .comedy]),
        .en(
            438148, "Minions: The Rise of Gru", "2022-06-29", 60.7, 7.3, 3_530,
            [.animation, .adventure, .comedy, .family]),
        .en(425, "Ice Age", "2002-03-10", 55.1, 7.3, 14_030, [.animation, .comedy, .family, .adventure]),
        .en(950, "Ice Age: The Meltdown", "2006-03-23", 45.6, 6.8, 10_030, [.animation, .family, .comedy, .adventure]),
        .en(
            8355, "Ice Age: Dawn of the Dinosaurs", "2009-06-26", 45.2, 6.7, 9_030,
            [.animation, .comedy, .family, .adventure]),
        .en(
            57800, "Ice Age: Continental Drift", "2012-06-26", 40.8, 6.4, 8_030,
            [.animation, .comedy, .adventure, .family]),
        .en(
            278154, "Ice Age: Collision Course", "2016-06-23", 35.3, 6.1, 5_530,
            [.adventure, .animation, .comedy, .family]),
        .en(
            9502, "Kung Fu Panda", "2008-06-04", 60.9, 7.3, 11_030, [.action, .adventure, .animation, .family, .comedy]),
        .en(49444, "Kung Fu Panda 2", "2011-05-25", 50.4, 7.0, 7_030, [.animation, .family]),
        .en(
            140300, "Kung Fu Panda 3", "2016-01-23", 45.7, 6.8, 5_530,
            [.action, .adventure, .animation, .comedy, .family]),
        .en(
            1_011_985, "Kung Fu Panda 4", "2024-03-02", 1610.2, 7.1, 2_612,
            [.animation, .action, .family, .comedy, .fantasy]),
        .en(
            10191, "How to Train Your Dragon", "2010-03-18", 60.3, 7.8, 14_030,
            [.fantasy, .adventure, .animation, .family]),
        .en(
            82702, "How to Train Your Dragon 2", "2014-06-12", 50.8, 7.7, 9_530,
            [.fantasy, .action, .adventure, .animation]),
        .en(
            166428, "How to Train Your Dragon: The Hidden World", "2019-01-03", 45.4, 7.7, 6_530,
            [.animation, .family, .adventure]),
        .en(109445, "Frozen", "2013-11-20", 70.2, 7.2, 16_530, [.animation, .family, .adventure, .fantasy]),
        .en(330457, "Frozen II", "2019-11-20", 60.6, 7.3, 9_530, [.family, .animation, .adventure, .comedy, .fantasy]),
        .en(9806, "The Incredibles", "2004-10-27", 60.1, 7.7, 17_530, [.action, .adventure, .animation, .family]),
        .en(260513, "Incredibles 2", "2018-06-14", 50.5, 7.5, 12_530, [.action, .adventure, .animation, .family]),
        .en(12, "Finding Nemo", "2003-05-30", 70.9, 7.8, 19_530, [.animation, .family]),
        .en(127380, "Finding Dory", "2016-06-16", 50.3, 7.0, 12_530, [.adventure, .animation, .comedy, .family]),
        .en(585, "Monsters, Inc.", "2001-11-01", 65.7, 7.8, 18_030, [.animation, .comedy, .family]),
        .en(62211, "Monsters University", "2013-06-19", 50.2, 7.0, 10_030, [.animation, .family]),
        .en(150540, "Inside Out", "2015-06-09", 97.4, 7.9, 21_975, [.animation, .family, .adventure, .drama, .comedy]),
        .en(1_022_789, "Inside Out 2", "2024-06-11", 150.8, 7.6, 5_030, [.animation, .adventure, .comedy, .family]),
        .en(920, "Cars", "2006-06-08", 55.4, 6.9, 14_030, [.animation, .adventure, .comedy, .family]),
        .en(49013, "Cars 2", "2011-06-11", 40.1, 6.0, 8_030, [.animation, .family, .adventure, .comedy]),
        .en(260514, "Cars 3", "2017-06-15", 40.6, 6.7, 5_030, [.family, .comedy, .adventure, .animation]),
        .en(8587, "The Lion King", "1994-06-15", 80.3, 8.3, 18_030, [.family, .animation, .drama]),
        .en(420818, "The Lion King", "2019-07-12", 45.8, 7.1, 10_030, [.adventure, .drama, .family]),
        .en(10020, "Beauty and the Beast", "1991-11-13", 55.2, 7.7, 10_030, [.romance, .family, .animation, .fantasy]),
        .en(321612, "Beauty and the Beast", "2017-03-16", 45.7, 6.9, 15_530, [.family, .fantasy, .romance]),
        .en(812, "Aladdin", "1992-11-25", 60.4, 7.6, 11_030, [.animation, .family, .adventure, .fantasy, .romance]),
        .en(420817, "Aladdin", "2019-05-22", 55.9, 7.1, 10_030, [.adventure, .fantasy, .romance, .family]),
        .en(277834, "Moana", "2016-11-23", 70.3, 7.6, 12_530, [.adventure, .comedy, .family, .animation]),
        .en(1_241_982, "Moana 2", "2024-11-21", 150.2, 7.0, 1_530, [.animation, .adventure, .family, .comedy]),
        .en(269149, "Zootopia", "2016-02-11", 70.1, 7.7, 16_030, [.animation, .adventure, .family, .comedy]),
        .en(2062, "Ratatouille", "2007-06-28", 70.6, 7.8, 16_530, [.animation, .comedy, .family, .fantasy]),
        .en(10681, "WALL·E", "2008-06-22", 60.2, 8.1, 18_530, [.animation, .family, .sciFi], also: ["WALL-E"]),
        .en(14160, "Up", "2009-05-28", 65.7, 7.9, 19_530, [.animation, .comedy, .family, .adventure]),
        .en(354912, "Coco", "2017-10-27", 80.3, 8.2, 19_530, [.family, .animation, .fantasy, .music, .comedy]),
        .en(508442, "Soul", "2020-12-25", 55.8, 8.1, 10_530, [.animation, .family, .comedy, .fantasy]),
        .en(38757, "Tangled", "2010-11-24", 70.4, 7.6, 12_030, [.animation, .family]),
        .en(
            177572, "Big Hero 6", "2014-10-24", 60.9, 7.7, 15_030, [.adventure, .family, .animation, .action, .comedy]),
        .en(82690, "Wreck-It Ralph", "2012-11-01", 50.3, 7.3, 11_030, [.family, .animation, .comedy, .adventure]),
        .en(568124, "Encanto", "2021-11-24", 60.7, 7.6, 9_530, [.animation, .comedy, .family, .fantasy]),
        .en(nil, "Elemental", "2023-06-14", 55.2, 7.7, 4_530, [.animation, .comedy, .family, .fantasy, .romance]),
        .en(508943, "Luca", "2021-06-17", 50.6, 7.9, 8_030, [.animation, .comedy, .fantasy, .adventure]),
        .en(508947, "Turning Red", "2022-03-10", 45.1, 7.4, 5_030, [.animation, .family, .comedy, .fantasy]),
        .en(
            62177, "Brave", "2012-06-21", 50.7, 6.9, 13_530,
            [.animation, .adventure, .comedy, .family, .action, .fantasy]),
        .en(9487, "A Bug's Life", "1998-11-25", 45.2, 6.9, 9_030, [.adventure, .animation, .comedy, .family]),
        .en(10674, "Mulan", "1998-06-18", 60.5, 7.9, 9_530, [.animation, .family, .adventure]),
        .en(nil, "Pocahontas", "1995-06-14", 40.3, 6.9, 5_630, [.adventure, .animation, .drama, .family, .romance]),
        .en(nil, "The Hunchback of Notre Dame", "1996-06-21", 40.8, 7.1, 5_030, [.drama, .animation, .family]),
        .en(nil, "Hercules", "1997-06-13", 50.1, 7.5, 7_030, [.animation, .family, .fantasy, .adventure, .comedy]),
        .en(nil, "Tarzan", "1999-06-18", 45.6, 7.4, 6_030, [.family, .adventure, .animation, .drama]),
        .en(10144, "The Little Mermaid", "1989-11-17", 50.2, 7.3, 7_830, [.animation, .family, .fantasy]),
        .en(11544, "Lilo & Stitch", "2002-06-21", 55.7, 7.5, 6_530, [.animation, .family, .comedy]),
        .en(
            nil, "The Emperor's New Groove", "2000-12-15", 40.9, 7.5, 6_030,
            [.adventure, .animation, .comedy, .family, .fantasy]),
        .en(nil, "The Princess and the Frog", "2009-12-08", 45.4, 7.2, 6_030, [.romance, .family, .animation]),
        .en(nil, "The Iron Giant", "1999-08-06", 30.2, 7.9, 4_030, [.adventure, .animation, .family, .drama, .sciFi]),
        .en(nil, "Madagascar", "2005-05-25", 50.3, 6.9, 10_030, [.family, .animation, .adventure, .comedy]),
        .en(nil, "Chicken Run", "2000-06-23", 30.8, 6.7, 4_730, [.animation, .comedy, .family]),
        .en(
            nil, "Wallace & Gromit: The Curse of the Were-Rabbit", "2005-09-14", 20.4, 7.0, 2_530,
            [.adventure, .animation, .comedy, .family]),
        .en(nil, "Coraline", "2009-02-05", 45.1, 7.8, 7_530, [.animation, .family, .fantasy]),
        .en(nil, "Fantastic Mr. Fox", "2009-10-14", 30.6, 7.8, 5_530, [.adventure, .animation, .comedy, .family]),
        .en(nil, "The Nightmare Before Christmas", "1993-10-09", 45.3, 7.8, 9_030, [.fantasy, .animation, .family]),
        .en(
            nil, "The Lego Movie", "2014-02-06", 40.7, 7.4, 7_530, [.adventure, .animation, .comedy, .family, .fantasy]),
        .en(nil, "Sing", "2016-11-23", 45.2, 7.1, 6_530, [.animation, .comedy, .family, .music]),
        .en(
            315162, "Puss in Boots: The Last Wish", "2022-12-07", 70.8, 8.2, 7_530,
            [.animation, .family, .fantasy, .adventure, .comedy]),
        .en(
            502356, "The Super Mario Bros. Movie", "2023-04-05", 80.4, 7.6, 9_030,
            [.family, .comedy, .adventure, .animation, .fantasy]),
        .en(1_184_918, "The Wild Robot", "2024-09-12", 110.3, 8.3, 4_530, [.animation, .sciFi, .family]),
        .en(
            nil, "The Mitchells vs. the Machines", "2021-04-22", 35.6, 7.9, 3_730,
            [.animation, .adventure, .comedy, .family, .sciFi]),
        .en(nil, "Klaus", "2019-11-08", 40.2, 8.2, 5_030, [.animation, .comedy, .family, .fantasy]),
        .en(nil, "Kubo and the Two Strings", "2016-08-13", 30.7, 7.7, 3_030, [.adventure, .animation, .fantasy]),
        .en(nil, "Isle of Dogs", "2018-03-23", 25.3, 7.8, 3_530, [.adventure, .comedy, .animation]),
        .en(nil, "KPop Demon Hunters", "2025-06-20", 300.5, 8.3, 1_530, [.animation, .fantasy, .action, .music]),
    ]
}
