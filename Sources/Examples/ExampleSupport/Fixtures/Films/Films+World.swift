extension Films {
    /// World cinema from 1980 on, under its original titles, in its own languages and
    /// scripts: Japanese (Studio Ghibli and other anime among them), Korean, Mandarin and
    /// Cantonese, Hindi, Persian, Arabic, Hebrew, Russian and the languages of Europe and
    /// Latin America. (Older films from everywhere are in the classics table.)
    static let world: [Film] = [
        Film(129, "Spirited Away", "千と千尋の神隠し", "ja", "2001-07-20", 88.1, 8.5, 16_921, [.animation, .family, .fantasy]),
        Film(
            128, "Princess Mononoke", "もののけ姫", "ja", "1997-07-12", 60.3, 8.3, 8_530, [.adventure, .fantasy, .animation]),
        Film(
            8392, "My Neighbor Totoro", "となりのトトロ", "ja", "1988-04-16", 55.7, 8.1, 8_530,
            [.fantasy, .animation, .family]),
        Film(
            12477, "Grave of the Fireflies", "火垂るの墓", "ja", "1988-04-16", 40.2, 8.5, 6_030, [.animation, .drama, .war]),
        Film(
            16859, "Kiki's Delivery Service", "魔女の宅急便", "ja", "1989-07-29", 40.6, 7.8, 4_530,
            [.animation, .family, .fantasy]),
        Film(
            10515, "Castle in the Sky", "天空の城ラピュタ", "ja", "1986-08-02", 40.1, 8.0, 4_530,
            [.adventure, .fantasy, .animation]),
        Film(
            81, "Nausicaä of the Valley of the Wind", "風の谷のナウシカ", "ja", "1984-03-11", 35.5, 7.9, 4_030,
            [.adventure, .animation, .fantasy]),
        Film(
            11621, "Porco Rosso", "紅の豚", "ja", "1992-07-18", 30.8, 7.8, 3_330,
            [.family, .comedy, .animation, .adventure]),
        Film(
            4935, "Howl's Moving Castle", "ハウルの動く城", "ja", "2004-11-19", 70.4, 8.4, 10_530,
            [.fantasy, .animation, .adventure]),
        Film(12429, "Ponyo", "崖の上のポニョ", "ja", "2008-07-19", 40.9, 7.7, 4_030, [.animation, .family, .fantasy]),
        Film(
            149870, "The Wind Rises", "風立ちぬ", "ja", "2013-07-20", 35.3, 7.7, 3_530,
            [.drama, .animation, .romance, .war]),
        Film(
            nil, "Whisper of the Heart", "耳をすませば", "ja", "1995-07-15", 30.7, 7.9, 2_030,
            [.animation, .drama, .family, .romance]),
        Film(
            nil, "The Tale of the Princess Kaguya", "かぐや姫の物語", "ja", "2013-11-23", 25.2, 8.0, 1_530,
            [.animation, .drama, .fantasy]),
        Film(
            508883, "The Boy and the Heron", "君たちはどう生きるか", "ja", "2023-07-14", 60.6, 7.4, 2_030,
            [.animation, .adventure, .fantasy]),
        Film(372058, "Your Name.", "君の名は。", "ja", "2016-08-26", 80.4, 8.5, 11_030, [.romance, .animation, .drama]),
        Film(
            568160, "Weathering with You", "天気の子", "ja", "2019-07-19", 45.8, 8.0, 2_530,
            [.animation, .drama, .fantasy, .romance]),
        Film(
            nil, "Suzume", "すずめの戸締まり", "ja", "2022-11-11", 50.3, 7.9, 1_530, [.animation, .drama, .adventure, .fantasy]),
        Film(
            nil, "A Silent Voice: The Movie", "聲の形", "ja", "2016-09-17", 40.7, 8.4, 3_530,
            [.animation, .drama, .romance]),
        Film(nil, "Perfect Blue", "パーフェクトブルー", "ja", "1997-08-05", 30.2, 8.2, 2_230, [.animation, .thriller]),
        Film(nil, "Ghost in the Shell", "攻殻機動隊", "ja", "1995-11-18", 30.6, 7.8, 3_230, [.action, .animation, .sciFi]),
        Film(nil, "Paprika", "パプリカ", "ja", "2006-09-02", 25.1, 7.8, 2_330, [.animation, .sciFi, .thriller]),
        Film(
            nil, "Demon Slayer -Kimetsu no Yaiba- The Movie: Mugen Train", "劇場版「鬼滅の刃」無限列車編", "ja",
            "2020-10-16", 55.4, 8.2, 3_530, [.animation, .action, .fantasy, .thriller]),
        Film(11645, "Ran", "乱", "ja", "1985-06-01", 20.5, 8.1, 1_530, [.action, .drama, .history]),
        Film(nil, "Shoplifters", "万引き家族", "ja", "2018-06-08", 20.3, 7.9, 1_830, [.drama, .crime]),
        Film(nil, "Departures", "おくりびと", "ja", "2008-09-13", 15.7, 8.0, 830, [.drama]),
        Film(nil, "Battle Royale", "バトル・ロワイアル", "ja", "2000-12-16", 25.8, 7.3, 2_330, [.drama, .thriller, .action]),
        Film(nil, "Ring", "リング", "ja", "1998-01-31", 25.4, 7.1, 1_430, [.horror, .mystery]),
        Film(nil, "Godzilla Minus One", "ゴジラ-1.0", "ja", "2023-11-03", 50.2, 7.6, 1_730, [.sciFi, .horror, .action]),
        Film(nil, "Drive My Car", "ドライブ・マイ・カー", "ja", "2021-08-20", 18.6, 7.5, 830, [.drama]),

        Film(496243, "Parasite", "기생충", "ko", "2019-05-30", 75.3, 8.5, 19_030, [.comedy, .thriller, .drama]),
        Film(670, "Oldboy", "올드보이", "ko", "2003-11-21", 40.6, 8.2, 8_530, [.drama, .thriller, .mystery, .action]),
        Film(nil, "Memories of Murder", "살인의 추억", "ko", "2003-05-02", 25.2, 8.1, 2_030, [.crime, .drama, .thriller]),
        Film(nil, "Train to Busan", "부산행", "ko", "2016-07-20", 40.8, 7.8, 7_530, [.horror, .thriller, .action]),
        Film(nil, "The Handmaiden", "아가씨", "ko", "2016-06-01", 30.3, 8.2, 3_030, [.thriller, .drama, .romance]),
        Film(nil, "Burning", "버닝", "ko", "2018-05-17", 18.7, 7.5, 1_330, [.mystery, .drama, .thriller]),
        Film(nil, "Decision to Leave", "헤어질 결심", "ko", "2022-06-29", 20.1, 7.3, 830, [.crime, .mystery, .romance]),
        Film(nil, "I Saw the Devil", "악마를 보았다", "ko", "2010-08-12", 30.5, 8.0, 2_530, [.thriller, .horror, .crime]),
        Film(nil, "The Host", "괴물", "ko", "2006-07-27", 20.4, 6.9, 2_030, [.horror, .drama, .sciFi]),

        Film(nil, "Farewell My Concubine", "霸王别姬", "zh", "1993-01-01", 20.8, 8.2, 1_030, [.drama, .romance]),
        Film(
            nil, "Crouching Tiger, Hidden Dragon", "臥虎藏龍", "zh", "2000-07-06", 30.2, 7.4, 3_030,
            [.adventure, .drama, .action, .romance]),
        Film(nil, "Hero", "英雄", "zh", "2002-10-24", 25.6, 7.4, 2_230, [.drama, .adventure, .action, .history]),
        Film(843, "In the Mood for Love", "花樣年華", "cn", "2000-09-29", 25.3, 8.1, 2_730, [.drama, .romance]),
        Film(nil, "Chungking Express", "重慶森林", "cn", "1994-07-14", 20.7, 8.0, 1_530, [.drama, .comedy, .romance]),
        Film(
            nil, "Infernal Affairs", "無間道", "cn", "2002-12-12", 20.1, 7.8, 1_330, [.action, .crime, .drama, .thriller]),
        Film(nil, "Raise the Red Lantern", "大红灯笼高高挂", "zh", "1991-09-10", 15.4, 8.0, 630, [.drama, .history]),
        Film(nil, "Yi Yi", "一一", "zh", "2000-05-14", 12.8, 8.0, 530, [.drama, .romance]),
        Film(nil, "The Wandering Earth", "流浪地球", "zh", "2019-02-05", 25.3, 6.4, 930, [.sciFi, .action, .drama]),
        Film(nil, "Ne Zha", "哪吒之魔童降世", "zh", "2019-07-26", 20.6, 7.8, 430, [.animation, .fantasy, .adventure]),
        Film(nil, "Ne Zha 2", "哪吒之魔童闹海", "zh", "2025-01-29", 60.2, 8.0, 330, [.animation, .fantasy, .adventure]),
        Film(
            nil, "House of Flying Daggers", "十面埋伏", "zh", "2004-05-19", 20.9, 7.1, 1_330,
            [.adventure, .drama, .action, .romance]),
        Film(nil, "Kung Fu Hustle", "功夫", "cn", "2004-12-23", 30.4, 7.4, 3_330, [.action, .comedy, .crime, .fantasy]),
        Film(nil, "Shaolin Soccer", "少林足球", "cn", "2001-07-05", 20.1, 6.9, 1_430, [.action, .comedy]),
        Film(nil, "Ip Man", "葉問", "cn", "2008-12-12", 30.7, 7.5, 3_030, [.drama, .action, .history]),

        Film(
            19404, "Dilwale Dulhania Le Jayenge", "दिलवाले दुल्हनिया ले जायेंगे", "hi", "1995-10-20", 25.4, 8.5, 4_430,
            [.comedy, .drama, .romance]),
        Film(nil, "Sholay", "शोले", "hi", "1975-08-15", 12.3, 8.0, 330, [.action, .adventure, .comedy, .drama]),
        Film(nil, "Lagaan: Once Upon a Time in India", "लगान", "hi", "2001-06-15", 13.6, 7.5, 530, [.drama, .romance]),
        Film(nil, "Dangal", "दंगल", "hi", "2016-12-21", 18.2, 7.9, 1_030, [.drama, .action]),
        Film(nil, "Mother India", "मदर इंडिया", "hi", "1957-10-25", 6.1, 7.2, 110, [.drama]),
        Film(nil, "Taare Zameen Par", "तारे ज़मीन पर", "hi", "2007-12-21", 15.4, 8.0, 730, [.drama, .family]),

        Film(nil, "A Separation", "جدایی نادر از سیمین", "fa", "2011-03-16", 18.3, 7.9, 2_030, [.drama]),
        Film(nil, "The Salesman", "فروشنده", "fa", "2016-09-08", 12.6, 7.2, 730, [.drama, .thriller]),
        Film(nil, "Taste of Cherry", "طعم گیلاس", "fa", "1997-09-28", 9.7, 7.2, 430, [.drama]),
        Film(nil, "Children of Heaven", "بچه‌های آسمان", "fa", "1997-02-01", 12.1, 8.0, 630, [.drama, .family]),
        Film(nil, "Wadjda", "وجدة", "ar", "2012-08-31", 8.9, 7.3, 330, [.drama]),
        Film(nil, "Capernaum", "كفرناحوم", "ar", "2018-09-20", 20.6, 8.4, 2_030, [.drama]),
        Film(
            nil, "Waltz with Bashir", "ואלס עם באשיר", "he", "2008-06-25", 12.8, 7.8, 730,
            [.animation, .documentary, .war]),

        Film(nil, "Come and See", "Иди и смотри", "ru", "1985-10-17", 25.4, 8.3, 1_330, [.drama, .war]),
        Film(nil, "Ivan's Childhood", "Иваново детство", "ru", "1962-04-06", 11.3, 7.9, 530, [.drama, .war]),
        Film(nil, "Andrei Rublev", "Андрей Рублёв", "ru", "1966-12-16", 12.7, 8.0, 630, [.drama, .history]),
        Film(
            nil, "The Cranes Are Flying", "Летят журавли", "ru", "1957-10-12", 9.8, 8.0, 330, [.drama, .romance, .war]),
        Film(nil, "Leviathan", "Левиафан", "ru", "2014-05-23", 12.2, 7.2, 730, [.drama]),
        Film(nil, "Brother", "Брат", "ru", "1997-05-17", 14.5, 8.0, 830, [.crime, .drama, .action]),
        Film(
            nil, "Moscow Does Not Believe in Tears", "Москва слезам не верит", "ru", "1980-02-11", 11.9, 7.9, 630,
            [.drama, .romance, .comedy]),

        Film(
            194, "Amélie", "Le Fabuleux Destin d'Amélie Poulain", "fr", "2001-04-25", 32.7, 7.9, 11_402,
            [.comedy, .romance]),
        Film(101, "Léon: The Professional", "Léon", "fr", "1994-09-14", 44.0, 8.3, 14_815, [.crime, .drama, .action]),
        Film(406, "La Haine", "La Haine", "fr", "1995-05-31", 25.3, 8.0, 2_830, [.drama]),
        Film(77338, "The Intouchables", "Intouchables", "fr", "2011-11-02", 45.6, 8.3, 17_030, [.drama, .comedy]),
        Film(
            nil, "Portrait of a Lady on Fire", "Portrait de la jeune fille en feu", "fr", "2019-09-18", 25.2, 8.1,
            3_030,
            [.drama, .romance]),
        Film(
            nil, "Anatomy of a Fall", "Anatomie d'une chute", "fr", "2023-08-23", 30.7, 7.6, 2_530,
            [.drama, .crime, .mystery]),
        Film(nil, "Amour", "Amour", "fr", "2012-09-20", 14.3, 7.6, 1_530, [.drama, .romance]),
        Film(nil, "Jules and Jim", "Jules et Jim", "fr", "1962-01-23", 10.6, 7.6, 630, [.drama, .romance]),
        Film(nil, "Three Colours: Blue", "Trois couleurs : Bleu", "fr", "1993-09-08", 15.8, 7.7, 1_230, [.drama]),
        Film(
            nil, "Three Colours: Red", "Trois couleurs : Rouge", "fr", "1994-05-16", 15.2, 7.9, 1_130,
            [.drama, .mystery, .romance]),
        Film(nil, "The Artist", "The Artist", "fr", "2011-10-12", 20.6, 7.4, 3_430, [.drama, .comedy, .romance]),
        Film(
            nil, "Blue Is the Warmest Colour", "La Vie d'Adèle : Chapitres 1 et 2", "fr", "2013-10-09", 25.1, 7.6,
            2_530, [.drama, .romance]),
        Film(nil, "Jean de Florette", "Jean de Florette", "fr", "1986-08-27", 11.4, 7.8, 630, [.drama]),
        Film(
            nil, "Au Revoir les Enfants", "Au revoir les enfants", "fr", "1987-10-07", 10.9, 7.9, 530, [.drama, .war]),
        Film(nil, "Delicatessen", "Delicatessen", "fr", "1991-04-17", 13.7, 7.2, 1_130, [.comedy, .sciFi]),
        Film(
            nil, "The City of Lost Children", "La Cité des enfants perdus", "fr", "1995-05-17", 14.2, 7.3, 1_030,
            [.fantasy, .sciFi, .adventure]),
        Film(
            nil, "The Triplets of Belleville", "Les Triplettes de Belleville", "fr", "2003-06-11", 14.8, 7.4, 930,
            [.animation, .comedy]),
        Film(nil, "Persepolis", "Persepolis", "fr", "2007-06-27", 15.3, 7.7, 1_330, [.animation, .drama]),

        Film(637, "Life Is Beautiful", "La vita è bella", "it", "1997-12-20", 40.2, 8.5, 12_530, [.comedy, .drama]),
        Film(
            11216, "Cinema Paradiso", "Nuovo Cinema Paradiso", "it", "1988-11-17", 25.7, 8.4, 4_230, [.drama, .romance]),
        Film(
            nil, "Il Postino: The Postman", "Il postino", "it", "1994-09-22", 11.5, 7.5, 730,
            [.comedy, .drama, .romance]),
        Film(nil, "The Great Beauty", "La grande bellezza", "it", "2013-05-21", 18.4, 7.6, 2_230, [.drama, .comedy]),
        Film(nil, "Rome, Open City", "Roma città aperta", "it", "1945-09-24", 9.4, 7.8, 530, [.drama, .history, .war]),
        Film(nil, "The Leopard", "Il gattopardo", "it", "1963-03-27", 13.1, 7.8, 630, [.drama, .history]),
        Film(
            nil, "Perfect Strangers", "Perfetti sconosciuti", "it", "2016-02-11", 20.4, 7.7, 2_530, [.comedy, .drama]),

        Film(
            1417, "Pan's Labyrinth", "El laberinto del fauno", "es", "2006-10-11", 40.3, 7.8, 10_530,
            [.fantasy, .drama, .war]),
        Film(nil, "Y Tu Mamá También", "Y tu mamá también", "es", "2001-06-08", 20.7, 7.3, 1_630, [.drama, .comedy]),
        Film(nil, "Amores Perros", "Amores perros", "es", "2000-06-16", 20.2, 7.6, 2_530, [.drama, .thriller]),
        Film(nil, "Roma", "Roma", "es", "2018-08-21", 20.8, 7.7, 4_330, [.drama]),
        Film(
            nil, "The Secret in Their Eyes", "El secreto de sus ojos", "es", "2009-08-13", 20.3, 7.9, 3_030,
            [.crime, .drama, .mystery]),
        Film(
            nil, "Wild Tales", "Relatos salvajes", "es", "2014-08-14", 25.6, 8.0, 3_630, [.drama, .thriller, .comedy]),
        Film(nil, "All About My Mother", "Todo sobre mi madre", "es", "1999-04-08", 15.2, 7.8, 1_330, [.drama]),
        Film(nil, "Volver", "Volver", "es", "2006-03-17", 15.9, 7.5, 1_530, [.comedy, .drama]),
        Film(nil, "Talk to Her", "Hable con ella", "es", "2002-03-08", 13.4, 7.6, 1_030, [.drama, .romance]),
        Film(nil, "The Orphanage", "El orfanato", "es", "2007-05-20", 20.6, 7.4, 3_030, [.horror, .thriller, .drama]),
        Film(
            nil, "The Invisible Guest", "Contratiempo", "es", "2016-09-23", 30.1, 8.0, 4_530,
            [.crime, .mystery, .thriller]),
        Film(nil, "The Platform", "El hoyo", "es", "2019-09-06", 30.7, 7.0, 6_030, [.drama, .sciFi, .thriller]),
        Film(
            nil, "Society of the Snow", "La sociedad de la nieve", "es", "2023-12-13", 35.4, 8.0, 2_530,
            [.drama, .history]),
        Film(nil, "Open Your Eyes", "Abre los ojos", "es", "1997-12-19", 14.3, 7.5, 930, [.drama, .mystery, .sciFi]),
        Film(nil, "The Sea Inside", "Mar adentro", "es", "2004-09-03", 13.7, 7.7, 1_130, [.drama]),
        Film(
            nil, "Like Water for Chocolate", "Como agua para chocolate", "es", "1992-04-16", 10.2, 7.1, 330,
            [.drama, .romance]),

        Film(598, "City of God", "Cidade de Deus", "pt", "2002-08-30", 35.6, 8.4, 7_030, [.drama, .crime]),
        Film(nil, "Central Station", "Central do Brasil", "pt", "1998-04-03", 12.4, 7.9, 630, [.drama]),
        Film(nil, "Elite Squad", "Tropa de Elite", "pt", "2007-10-05", 18.1, 7.9, 1_930, [.drama, .action, .crime]),
        Film(nil, "I'm Still Here", "Ainda Estou Aqui", "pt", "2024-09-19", 30.5, 8.0, 830, [.drama, .history]),

        Film(
            582, "The Lives of Others", "Das Leben der Anderen", "de", "2006-03-15", 20.3, 7.9, 3_430,
            [.drama, .thriller]),
        Film(613, "Downfall", "Der Untergang", "de", "2004-09-16", 25.8, 7.9, 4_030, [.drama, .history, .war]),
        Film(nil, "Run Lola Run", "Lola rennt", "de", "1998-08-20", 15.6, 7.1, 2_130, [.action, .drama, .thriller]),
        Film(387, "Das Boot", "Das Boot", "de", "1981-09-17", 20.4, 7.9, 2_130, [.action, .drama, .history, .war]),
        Film(
            nil, "Wings of Desire", "Der Himmel über Berlin", "de", "1987-05-17", 12.9, 7.7, 1_030,
            [.drama, .fantasy, .romance]),
        Film(
            nil, "Good Bye, Lenin!", "Good Bye, Lenin!", "de", "2003-02-13", 16.2, 7.3, 2_130,
            [.comedy, .drama, .romance]),
        Film(nil, "The White Ribbon", "Das weiße Band", "de", "2009-09-17", 11.8, 7.3, 730, [.drama, .mystery]),
        Film(
            nil, "All Quiet on the Western Front", "Im Westen nichts Neues", "de", "2022-09-29", 30.6, 7.7, 3_530,
            [.drama, .history, .war]),
        Film(nil, "The Wave", "Die Welle", "de", "2008-03-13", 18.9, 7.5, 2_530, [.drama, .thriller]),
        Film(nil, "Fitzcarraldo", "Fitzcarraldo", "de", "1982-03-04", 11.3, 7.6, 630, [.adventure, .drama]),

        Film(nil, "The Hunt", "Jagten", "da", "2012-05-20", 25.7, 8.1, 3_530, [.drama]),
        Film(nil, "Another Round", "Druk", "da", "2020-09-24", 20.2, 7.7, 2_330, [.comedy, .drama]),
        Film(nil, "The Celebration", "Festen", "da", "1998-06-19", 12.6, 7.7, 730, [.drama]),
        Film(nil, "Babette's Feast", "Babettes gæstebud", "da", "1987-08-28", 9.3, 7.6, 430, [.drama]),
        Film(
            nil, "Let the Right One In", "Låt den rätte komma in", "sv", "2008-01-26", 18.4, 7.4, 1_830,
            [.horror, .drama, .romance]),
        Film(
            nil, "The Girl with the Dragon Tattoo", "Män som hatar kvinnor", "sv", "2009-02-27", 20.5, 7.4, 2_330,
            [.crime, .mystery, .thriller]),
        Film(nil, "A Man Called Ove", "En man som heter Ove", "sv", "2015-12-25", 15.7, 7.7, 1_230, [.comedy, .drama]),
        Film(nil, "Fanny and Alexander", "Fanny och Alexander", "sv", "1982-12-17", 12.3, 7.9, 730, [.drama]),
        Film(
            nil, "The Worst Person in the World", "Verdens verste menneske", "no", "2021-10-13", 15.9, 7.4, 1_030,
            [.drama, .comedy, .romance]),
        Film(nil, "Ida", "Ida", "pl", "2013-10-25", 11.6, 7.1, 730, [.drama]),
        Film(nil, "Cold War", "Zimna wojna", "pl", "2018-06-08", 14.8, 7.6, 1_030, [.drama, .romance]),
        Film(nil, "Son of Saul", "Saul fia", "hu", "2015-06-11", 12.4, 7.3, 930, [.drama, .war]),
        Film(nil, "Winter Sleep", "Kış Uykusu", "tr", "2014-06-13", 9.6, 7.8, 430, [.drama]),
    ]
}
