extension Books {
    /// Children's and young adults' books outside the series tables, from picture books to
    /// the novels every school reads.
    static let children: [Book] = [
        Book("Alice's Adventures in Wonderland", "Lewis Carroll", 1865, 192, .juvenileFiction, publisher: "Macmillan"),
        Book("Through the Looking-Glass", "Lewis Carroll", 1871, 224, .juvenileFiction, publisher: "Macmillan"),
        Book("Black Beauty", "Anna Sewell", 1877, 255, .juvenileFiction, publisher: "Jarrold & Sons"),
        Book("Heidi", "Johanna Spyri", 1881, 250, .juvenileFiction, from: "de"),
        Book("The Jungle Book", "Rudyard Kipling", 1894, 212, .juvenileFiction, publisher: "Macmillan"),
        Book(
            "The Wonderful Wizard of Oz", "L. Frank Baum", 1900, 259, .juvenileFiction,
            publisher: "George M. Hill Company"),
        Book(
            "The Tale of Peter Rabbit", "Beatrix Potter", 1902, 56, .juvenileFiction, publisher: "Frederick Warne & Co."
        ),
        Book("Just So Stories", "Rudyard Kipling", 1902, 249, .juvenileFiction, publisher: "Macmillan"),
        Book(
            "A Little Princess", "Frances Hodgson Burnett", 1905, 266, .juvenileFiction,
            publisher: "Charles Scribner's Sons"),
        Book("The Railway Children", "E. Nesbit", 1906, 304, .juvenileFiction),
        Book("The Wind in the Willows", "Kenneth Grahame", 1908, 302, .juvenileFiction, publisher: "Methuen"),
        Book(
            "The Secret Garden", "Frances Hodgson Burnett", 1911, 375, .juvenileFiction,
            publisher: "Frederick A. Stokes"),
        Book("Peter and Wendy", "J. M. Barrie", 1911, 267, .juvenileFiction, publisher: "Hodder & Stoughton"),
        Book("Winnie-the-Pooh", "A. A. Milne", 1926, 176, .juvenileFiction, publisher: "Methuen"),
        Book("The House at Pooh Corner", "A. A. Milne", 1928, 178, .juvenileFiction, publisher: "Methuen"),
        Book("Swallows and Amazons", "Arthur Ransome", 1930, 351, .juvenileFiction, publisher: "Jonathan Cape"),
        Book("Mary Poppins", "P. L. Travers", 1934, 206, .juvenileFiction, publisher: "Gerald Howe"),
        Book("Madeline", "Ludwig Bemelmans", 1939, 48, .juvenileFiction, publisher: "Simon & Schuster"),
        Book("Curious George", "H. A. Rey, Margret Rey", 1941, 64, .juvenileFiction, publisher: "Houghton Mifflin"),
        Book("Five on a Treasure Island", "Enid Blyton", 1942, 246, .juvenileFiction, publisher: "Hodder & Stoughton"),
        Book("Stuart Little", "E. B. White", 1945, 131, .juvenileFiction, publisher: "Harper & Brothers"),
        Book("Goodnight Moon", "Margaret Wise Brown", 1947, 32, .juvenileFiction, publisher: "Harper & Brothers"),
        Book("Charlotte's Web", "E. B. White", 1952, 184, .juvenileFiction, publisher: "Harper & Brothers"),
        Book("The Borrowers", "Mary Norton", 1952, 180, .juvenileFiction, publisher: "J. M. Dent"),
        Book("The Cat in the Hat", "Dr. Seuss", 1957, 61, .juvenileFiction, publisher: "Random House"),
        Book("How the Grinch Stole Christmas!", "Dr. Seuss", 1957, 69, .juvenileFiction, publisher: "Random House"),
        Book("Green Eggs and Ham", "Dr. Seuss", 1960, 62, .juvenileFiction, publisher: "Random House"),
        Book("The Lorax", "Dr. Seuss", 1971, 72, .juvenileFiction, publisher: "Random House"),
        Book("Oh, the Places You'll Go!", "Dr. Seuss", 1990, 56, .juvenileFiction, publisher: "Random House"),
        Book("A Bear Called Paddington", "Michael Bond", 1958, 128, .juvenileFiction, publisher: "William Collins"),
        Book("Island of the Blue Dolphins", "Scott O'Dell", 1960, 184, .juvenileFiction, publisher: "Houghton Mifflin"),
        Book("Where the Red Fern Grows", "Wilson Rawls", 1961, 212, .juvenileFiction, publisher: "Doubleday"),
        Book("The Phantom Tollbooth", "Norton Juster", 1961, 255, .juvenileFiction, publisher: "Random House"),
        Book("James and the Giant Peach", "Roald Dahl", 1961, 146, .juvenileFiction, publisher: "Alfred A. Knopf"),
        Book(
            "A Wrinkle in Time", "Madeleine L'Engle", 1962, 211, .juvenileFiction,
            publisher: "Farrar, Straus and Giroux"),
        Book("The Snowy Day", "Ezra Jack Keats", 1962, 40, .juvenileFiction, publisher: "The Viking Press"),
        Book("Where the Wild Things Are", "Maurice Sendak", 1963, 48, .juvenileFiction, publisher: "Harper & Row"),
        Book("Stig of the Dump", "Clive King", 1963, 158, .juvenileFiction, publisher: "Puffin Books"),
        Book(
            "Charlie and the Chocolate Factory", "Roald Dahl", 1964, 155, .juvenileFiction, publisher: "Alfred A. Knopf"
        ),
        Book("The Giving Tree", "Shel Silverstein", 1964, 64, .juvenileFiction, publisher: "Harper & Row"),
        Book("Harriet the Spy", "Louise Fitzhugh", 1964, 298, .juvenileFiction, publisher: "Harper & Row"),
        Book(
            "From the Mixed-Up Files of Mrs. Basil E. Frankweiler", "E. L. Konigsburg", 1967, 162, .juvenileFiction,
            publisher: "Atheneum"),
        Book("The Outsiders", "S. E. Hinton", 1967, 192, .youngAdult, publisher: "The Viking Press"),
        Book("Corduroy", "Don Freeman", 1968, 32, .juvenileFiction, publisher: "The Viking Press"),
        Book("The Tiger Who Came to Tea", "Judith Kerr", 1968, 32, .juvenileFiction, publisher: "William Collins"),
        Book(
            "The Very Hungry Caterpillar", "Eric Carle", 1969, 26, .juvenileFiction,
            publisher: "World Publishing Company"),
        Book("Frog and Toad Are Friends", "Arnold Lobel", 1970, 64, .juvenileFiction, publisher: "Harper & Row"),
        Book(
            "Are You There God? It's Me, Margaret.", "Judy Blume", 1970, 149, .juvenileFiction,
            publisher: "Bradbury Press"),
        Book("Fantastic Mr Fox", "Roald Dahl", 1970, 81, .juvenileFiction, publisher: "George Allen & Unwin"),
        Book(
            "Charlie and the Great Glass Elevator", "Roald Dahl", 1972, 163, .juvenileFiction,
            publisher: "Alfred A. Knopf"),
        Book("Danny, the Champion of the World", "Roald Dahl", 1975, 196, .juvenileFiction, publisher: "Jonathan Cape"),
        Book(
            "Tuck Everlasting", "Natalie Babbitt", 1975, 139, .juvenileFiction, publisher: "Farrar, Straus and Giroux"),
        Book(
            "Bridge to Terabithia", "Katherine Paterson", 1977, 128, .juvenileFiction,
            publisher: "Thomas Y. Crowell Co."),
        Book("The Snowman", "Raymond Briggs", 1978, 32, .juvenileFiction, publisher: "Hamish Hamilton"),
        Book("The Twits", "Roald Dahl", 1980, 96, .juvenileFiction, publisher: "Jonathan Cape"),
        Book("George's Marvellous Medicine", "Roald Dahl", 1981, 96, .juvenileFiction, publisher: "Jonathan Cape"),
        Book("Goodnight Mister Tom", "Michelle Magorian", 1981, 304, .juvenileFiction, publisher: "Kestrel Books"),
        Book("The BFG", "Roald Dahl", 1982, 208, .juvenileFiction, publisher: "Jonathan Cape"),
        Book("The Witches", "Roald Dahl", 1983, 208, .juvenileFiction, publisher: "Jonathan Cape"),
        Book("The Polar Express", "Chris Van Allsburg", 1985, 32, .juvenileFiction, publisher: "Houghton Mifflin"),
        Book("Hatchet", "Gary Paulsen", 1987, 195, .juvenileFiction, publisher: "Bradbury Press"),
        Book("Matilda", "Roald Dahl", 1988, 232, .juvenileFiction, publisher: "Jonathan Cape"),
        Book("Number the Stars", "Lois Lowry", 1989, 137, .juvenileFiction, publisher: "Houghton Mifflin"),
        Book("The Rainbow Fish", "Marcus Pfister", 1992, 32, .juvenileFiction, from: "de"),
        Book("The Giver", "Lois Lowry", 1993, 179, .youngAdult, publisher: "Houghton Mifflin"),
        Book("Guess How Much I Love You", "Sam McBratney", 1994, 32, .juvenileFiction, publisher: "Walker Books"),
        Book("Holes", "Louis Sachar", 1998, 233, .juvenileFiction, publisher: "Farrar, Straus and Giroux"),
        Book("The Gruffalo", "Julia Donaldson, Axel Scheffler", 1999, 32, .juvenileFiction, publisher: "Macmillan"),
        Book("Speak", "Laurie Halse Anderson", 1999, 197, .youngAdult, publisher: "Farrar, Straus and Giroux"),
        Book("The Perks of Being a Wallflower", "Stephen Chbosky", 1999, 213, .youngAdult, publisher: "MTV Books"),
        Book("Because of Winn-Dixie", "Kate DiCamillo", 2000, 182, .juvenileFiction, publisher: "Candlewick Press"),
        Book("Inkheart", "Cornelia Funke", 2003, 534, .juvenileFiction, from: "de"),
        Book("The Tale of Despereaux", "Kate DiCamillo", 2003, 267, .juvenileFiction, publisher: "Candlewick Press"),
        Book(
            "The Boy in the Striped Pyjamas", "John Boyne", 2006, 216, .juvenileFiction,
            publisher: "David Fickling Books"),
        Book("Thirteen Reasons Why", "Jay Asher", 2007, 288, .youngAdult, publisher: "Razorbill"),
        Book("Wonder", "R. J. Palacio", 2012, 315, .juvenileFiction, publisher: "Alfred A. Knopf"),
        Book("Eleanor & Park", "Rainbow Rowell", 2012, 328, .youngAdult, publisher: "St. Martin's Griffin"),
        Book("We Were Liars", "E. Lockhart", 2014, 225, .youngAdult, publisher: "Delacorte Press"),
        Book("Six of Crows", "Leigh Bardugo", 2015, 465, .youngAdult, publisher: "Henry Holt and Company"),
        Book("The Hate U Give", "Angie Thomas", 2017, 444, .youngAdult, publisher: "Balzer + Bray"),
        Book(
            "The Boy, the Mole, the Fox and the Horse", "Charlie Mackesy", 2019, 128, .juvenileFiction,
            publisher: "Ebury Press"),
    ]
}
