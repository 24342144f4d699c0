extension Books {
    /// History, biography, philosophy, politics, economics and self-help that readers name first.
    static let nonFiction: [Book] = [
        Book("Leviathan", "Thomas Hobbes", 1651, 736, .philosophy, publisher: "Andrew Crooke"),
        Book("Meditations on First Philosophy", "René Descartes", 1641, 112, .philosophy, from: "la"),
        Book("Ethics", "Baruch Spinoza", 1677, 288, .philosophy, from: "la"),
        Book("Two Treatises of Government", "John Locke", 1689, 464, .politics, publisher: "Awnsham Churchill"),
        Book("Common Sense", "Thomas Paine", 1776, 48, .politics, publisher: "Robert Bell"),
        Book("The Wealth of Nations", "Adam Smith", 1776, 1097, .business, publisher: "W. Strahan and T. Cadell"),
        Book(
            "A Vindication of the Rights of Woman", "Mary Wollstonecraft", 1792, 452, .politics,
            publisher: "Joseph Johnson"),
        Book("On Liberty", "John Stuart Mill", 1859, 207, .philosophy, publisher: "John W. Parker and Son"),
        Book("On the Origin of Species", "Charles Darwin", 1859, 502, .science, publisher: "John Murray"),
        Book("The Descent of Man", "Charles Darwin", 1871, 900, .science, publisher: "John Murray"),
        Book(
            "The General Theory of Employment, Interest and Money", "John Maynard Keynes", 1936, 403, .business,
            publisher: "Macmillan"),
        Book(
            "How to Win Friends and Influence People", "Dale Carnegie", 1936, 291, .selfHelp,
            publisher: "Simon & Schuster"),
        Book("The Road to Serfdom", "Friedrich Hayek", 1944, 266, .politics, publisher: "Routledge"),
        Book("The Origins of Totalitarianism", "Hannah Arendt", 1951, 477, .politics, publisher: "Schocken Books"),
        Book("The Elements of Style", "William Strunk Jr., E. B. White", 1959, 71, .language, publisher: "Macmillan"),
        Book(
            "The Rise and Fall of the Third Reich", "William L. Shirer", 1960, 1245, .history,
            publisher: "Simon & Schuster"),
        Book("Silent Spring", "Rachel Carson", 1962, 368, .nature, publisher: "Houghton Mifflin"),
        Book("The Guns of August", "Barbara W. Tuchman", 1962, 511, .history, publisher: "Macmillan"),
        Book(
            "Capitalism and Freedom", "Milton Friedman", 1962, 202, .business, publisher: "University of Chicago Press"),
        Book("Eichmann in Jerusalem", "Hannah Arendt", 1963, 312, .history, publisher: "The Viking Press"),
        Book("Man and His Symbols", "Carl Jung", 1964, 320, .psychology, publisher: "Aldus Books"),
        Book(
            "The Autobiography of Malcolm X", "Malcolm X, Alex Haley", 1965, 460, .biography, publisher: "Grove Press"),
        Book("In Cold Blood", "Truman Capote", 1966, 343, .history, publisher: "Random House"),
        Book("I Know Why the Caged Bird Sings", "Maya Angelou", 1969, 289, .biography, publisher: "Random House"),
        Book(
            "Bury My Heart at Wounded Knee", "Dee Brown", 1970, 487, .history, publisher: "Holt, Rinehart and Winston"),
        Book("Fear and Loathing in Las Vegas", "Hunter S. Thompson", 1971, 204, .biography, publisher: "Random House"),
        Book(
            "Zen and the Art of Motorcycle Maintenance", "Robert M. Pirsig", 1974, 418, .philosophy,
            publisher: "William Morrow"),
        Book(
            "All the President's Men", "Carl Bernstein, Bob Woodward", 1974, 349, .history,
            publisher: "Simon & Schuster"),
        Book("A People's History of the United States", "Howard Zinn", 1980, 526, .history, publisher: "Harper & Row"),
        Book(
            "The 7 Habits of Highly Effective People", "Stephen R. Covey", 1989, 381, .selfHelp, publisher: "Free Press"
        ),
        Book("Liar's Poker", "Michael Lewis", 1989, 249, .business, publisher: "W. W. Norton & Company"),
        Book("Long Walk to Freedom", "Nelson Mandela", 1994, 630, .biography, publisher: "Little, Brown and Company"),
        Book("Bird by Bird", "Anne Lamott", 1994, 239, .language, publisher: "Pantheon Books"),
        Book("Dreams from My Father", "Barack Obama", 1995, 403, .biography, publisher: "Times Books"),
        Book("A Promised Land", "Barack Obama", 2020, 768, .biography, publisher: "Crown Publishing"),
        Book("Notes from a Small Island", "Bill Bryson", 1995, 324, .travel, publisher: "Doubleday"),
        Book("A Walk in the Woods", "Bill Bryson", 1998, 276, .travel, publisher: "Broadway Books"),
        Book("Into the Wild", "Jon Krakauer", 1996, 207, .biography, publisher: "Villard"),
        Book("Into Thin Air", "Jon Krakauer", 1997, 333, .sports, publisher: "Villard"),
        Book("Angela's Ashes", "Frank McCourt", 1996, 364, .biography, publisher: "Scribner"),
        Book("Tuesdays with Morrie", "Mitch Albom", 1997, 192, .biography, publisher: "Doubleday"),
        Book(
            "The Innovator's Dilemma", "Clayton M. Christensen", 1997, 225, .business,
            publisher: "Harvard Business School Press"),
        Book("Guns, Germs, and Steel", "Jared Diamond", 1997, 480, .history, publisher: "W. W. Norton & Company"),
        Book("Collapse", "Jared Diamond", 2005, 575, .history, publisher: "Viking"),
        Book("Stalingrad", "Antony Beevor", 1998, 493, .history, publisher: "Viking"),
        Book("The Tipping Point", "Malcolm Gladwell", 2000, 279, .society, publisher: "Little, Brown and Company"),
        Book("Blink", "Malcolm Gladwell", 2005, 296, .psychology, publisher: "Little, Brown and Company"),
        Book("Outliers", "Malcolm Gladwell", 2008, 309, .psychology, publisher: "Little, Brown and Company"),
        Book("Good to Great", "Jim Collins", 2001, 300, .business, publisher: "HarperBusiness"),
        Book("Fooled by Randomness", "Nassim Nicholas Taleb", 2001, 203, .business, publisher: "Texere"),
        Book("The Black Swan", "Nassim Nicholas Taleb", 2007, 366, .business, publisher: "Random House"),
        Book("Antifragile", "Nassim Nicholas Taleb", 2012, 519, .business, publisher: "Random House"),
        Book("Seabiscuit", "Laura Hillenbrand", 2001, 399, .sports, publisher: "Random House"),
        Book("Unbroken", "Laura Hillenbrand", 2010, 473, .biography, publisher: "Random House"),
        Book("John Adams", "David McCullough", 2001, 751, .biography, publisher: "Simon & Schuster"),
        Book("1776", "David McCullough", 2005, 386, .history, publisher: "Simon & Schuster"),
        Book("Moneyball", "Michael Lewis", 2003, 288, .sports, publisher: "W. W. Norton & Company"),
        Book("The Big Short", "Michael Lewis", 2010, 266, .business, publisher: "W. W. Norton & Company"),
        Book("The Devil in the White City", "Erik Larson", 2003, 447, .history, publisher: "Crown Publishers"),
        Book("Rubicon", "Tom Holland", 2003, 408, .history, publisher: "Little, Brown and Company"),
        Book("Alexander Hamilton", "Ron Chernow", 2004, 818, .biography, publisher: "Penguin Press"),
        Book("Team of Rivals", "Doris Kearns Goodwin", 2005, 944, .biography, publisher: "Simon & Schuster"),
        Book("Freakonomics", "Steven D. Levitt, Stephen J. Dubner", 2005, 242, .business, publisher: "William Morrow"),
        Book("Nudge", "Richard H. Thaler, Cass R. Sunstein", 2008, 293, .business, publisher: "Yale University Press"),
        Book("Steve Jobs", "Walter Isaacson", 2011, 656, .biography, publisher: "Simon & Schuster"),
        Book("The Innovators", "Walter Isaacson", 2014, 542, .history, publisher: "Simon & Schuster"),
        Book(
            "Thinking, Fast and Slow", "Daniel Kahneman", 2011, 499, .psychology, publisher: "Farrar, Straus and Giroux"
        ),
        Book("The Lean Startup", "Eric Ries", 2011, 336, .business, publisher: "Crown Business"),
        Book(
            "Jerusalem", "Simon Sebag Montefiore", 2011, 650, .history, publisher: "Weidenfeld & Nicolson",
            subtitle: "The Biography"),
        Book("The Power of Habit", "Charles Duhigg", 2012, 371, .psychology, publisher: "Random House"),
        Book("Quiet", "Susan Cain", 2012, 333, .psychology, publisher: "Crown Publishers"),
        Book("Zero to One", "Peter Thiel, Blake Masters", 2014, 224, .business, publisher: "Crown Business"),
        Book("The Body Keeps the Score", "Bessel van der Kolk", 2014, 443, .psychology, publisher: "Viking"),
        Book("Between the World and Me", "Ta-Nehisi Coates", 2015, 152, .society, publisher: "Spiegel & Grau"),
        Book("The Silk Roads", "Peter Frankopan", 2015, 636, .history, publisher: "Bloomsbury"),
        Book(
            "SPQR", "Mary Beard", 2015, 608, .history, publisher: "Profile Books", subtitle: "A History of Ancient Rome"
        ),
        Book("Braiding Sweetgrass", "Robin Wall Kimmerer", 2013, 391, .nature, publisher: "Milkweed Editions"),
        Book("Hillbilly Elegy", "J. D. Vance", 2016, 264, .biography, publisher: "Harper"),
        Book("Shoe Dog", "Phil Knight", 2016, 386, .biography, publisher: "Scribner"),
        Book("21 Lessons for the 21st Century", "Yuval Noah Harari", 2018, 372, .history, publisher: "Spiegel & Grau"),
        Book("Atomic Habits", "James Clear", 2018, 320, .selfHelp, publisher: "Avery"),
        Book("Becoming", "Michelle Obama", 2018, 448, .biography, publisher: "Crown Publishing"),
        Book("Born a Crime", "Trevor Noah", 2016, 304, .biography, publisher: "Spiegel & Grau"),
        Book("When Breath Becomes Air", "Paul Kalanithi", 2016, 228, .biography, publisher: "Random House"),
        Book("Bad Blood", "John Carreyrou", 2018, 339, .business, publisher: "Alfred A. Knopf"),
        Book(
            "Factfulness", "Hans Rosling, Ola Rosling, Anna Rosling Rönnlund", 2018, 342, .society,
            publisher: "Flatiron Books"),
        Book("The Subtle Art of Not Giving a F*ck", "Mark Manson", 2016, 224, .selfHelp, publisher: "HarperOne"),
        Book("Can't Hurt Me", "David Goggins", 2018, 364, .biography, publisher: "Lioncrest Publishing"),
        Book("Spare", "Prince Harry", 2023, 416, .biography, publisher: "Random House"),
        Book("The Anxious Generation", "Jonathan Haidt", 2024, 385, .psychology, publisher: "Penguin Press"),
        Book("The Righteous Mind", "Jonathan Haidt", 2012, 419, .psychology, publisher: "Pantheon Books"),
        Book("The Denial of Death", "Ernest Becker", 1973, 314, .psychology, publisher: "Free Press"),
        Book("The Power of Now", "Eckhart Tolle", 1997, 236, .religion, publisher: "Namaste Publishing"),
        Book("Walden Two", "B. F. Skinner", 1948, 301, .fiction, publisher: "Macmillan"),
        Book("Mythology", "Edith Hamilton", 1942, 497, .society, publisher: "Little, Brown and Company"),
        Book("The Hero with a Thousand Faces", "Joseph Campbell", 1949, 416, .society, publisher: "Pantheon Books"),
        Book("Orientalism", "Edward W. Said", 1978, 368, .history, publisher: "Pantheon Books"),
        Book("The Feminine Mystique", "Betty Friedan", 1963, 410, .society, publisher: "W. W. Norton & Company"),
        Book("Night", "Elie Wiesel", 1956, 120, .biography, from: "yi"),
        Book("If This Is a Man", "Primo Levi", 1947, 179, .biography, from: "it"),
    ]

    /// Popular science, mathematics and the history of ideas.
    static let science: [Book] = [
        Book(
            "The Structure of Scientific Revolutions", "Thomas S. Kuhn", 1962, 172, .science,
            publisher: "University of Chicago Press"),
        Book("The Double Helix", "James D. Watson", 1968, 226, .science, publisher: "Atheneum"),
        Book("The Selfish Gene", "Richard Dawkins", 1976, 224, .science, publisher: "Oxford University Press"),
        Book("The Blind Watchmaker", "Richard Dawkins", 1986, 332, .science, publisher: "Longman"),
        Book("The God Delusion", "Richard Dawkins", 2006, 406, .religion, publisher: "Bantam Press"),
        Book(
            "Gödel, Escher, Bach", "Douglas R. Hofstadter", 1979, 777, .science, publisher: "Basic Books",
            subtitle: "An Eternal Golden Braid"),
        Book("Cosmos", "Carl Sagan", 1980, 365, .science, publisher: "Random House"),
        Book("Pale Blue Dot", "Carl Sagan", 1994, 429, .science, publisher: "Random House"),
        Book("The Demon-Haunted World", "Carl Sagan", 1995, 457, .science, publisher: "Random House"),
        Book("Contact", "Carl Sagan", 1985, 432, .fiction, publisher: "Simon & Schuster"),
        Book(
            "\"Surely You're Joking, Mr. Feynman!\"", "Richard P. Feynman", 1985, 350, .biography,
            publisher: "W. W. Norton & Company"),
        Book(
            "The Feynman Lectures on Physics", "Richard P. Feynman, Robert B. Leighton, Matthew Sands", 1964, 1552,
            .science, publisher: "Addison-Wesley"),
        Book(
            "QED", "Richard P. Feynman", 1985, 158, .science, publisher: "Princeton University Press",
            subtitle: "The Strange Theory of Light and Matter"),
        Book(
            "The Man Who Mistook His Wife for a Hat", "Oliver Sacks", 1985, 233, .psychology, publisher: "Summit Books"),
        Book("A Brief History of Time", "Stephen Hawking", 1988, 256, .science, publisher: "Bantam Books"),
        Book("The Universe in a Nutshell", "Stephen Hawking", 2001, 216, .science, publisher: "Bantam Books"),
        Book("Chaos", "James Gleick", 1987, 352, .science, publisher: "Viking", subtitle: "Making a New Science"),
        Book("The Emperor's New Mind", "Roger Penrose", 1989, 466, .science, publisher: "Oxford University Press"),
        Book("The Elegant Universe", "Brian Greene", 1999, 448, .science, publisher: "W. W. Norton & Company"),
        Book("Fermat's Last Theorem", "Simon Singh", 1997, 362, .mathematics, publisher: "Fourth Estate"),
        Book("The Code Book", "Simon Singh", 1999, 402, .mathematics, publisher: "Fourth Estate"),
        Book("A Short History of Nearly Everything", "Bill Bryson", 2003, 544, .science, publisher: "Broadway Books"),
        Book("The Emperor of All Maladies", "Siddhartha Mukherjee", 2010, 571, .science, publisher: "Scribner"),
        Book(
            "The Gene", "Siddhartha Mukherjee", 2016, 592, .science, publisher: "Scribner",
            subtitle: "An Intimate History"),
        Book(
            "The Immortal Life of Henrietta Lacks", "Rebecca Skloot", 2010, 370, .science, publisher: "Crown Publishers"
        ),
        Book("The Sixth Extinction", "Elizabeth Kolbert", 2014, 319, .science, publisher: "Henry Holt and Company"),
        Book(
            "Astrophysics for People in a Hurry", "Neil deGrasse Tyson", 2017, 222, .science,
            publisher: "W. W. Norton & Company"),
        Book("Seven Brief Lessons on Physics", "Carlo Rovelli", 2014, 96, .science, from: "it"),
        Book("The Order of Time", "Carlo Rovelli", 2017, 240, .science, from: "it"),
        Book("What If?", "Randall Munroe", 2014, 303, .science, publisher: "Houghton Mifflin Harcourt"),
        Book("Why We Sleep", "Matthew Walker", 2017, 360, .science, publisher: "Scribner"),
        Book("Entangled Life", "Merlin Sheldrake", 2020, 352, .science, publisher: "Random House"),
        Book("The Hidden Life of Trees", "Peter Wohlleben", 2015, 288, .nature, from: "de"),
        Book(
            "Principia Mathematica", "Alfred North Whitehead, Bertrand Russell", 1910, 674, .mathematics,
            publisher: "Cambridge University Press"),
        Book(
            "A History of Western Philosophy", "Bertrand Russell", 1945, 895, .philosophy, publisher: "Simon & Schuster"
        ),
        Book(
            "What Is Mathematics?", "Richard Courant, Herbert Robbins", 1941, 521, .mathematics,
            publisher: "Oxford University Press"),
        Book("How to Solve It", "George Pólya", 1945, 253, .mathematics, publisher: "Princeton University Press"),
        Book(
            "A Mathematician's Apology", "G. H. Hardy", 1940, 153, .mathematics, publisher: "Cambridge University Press"
        ),
        Book("The Joy of Cooking", "Irma S. Rombauer", 1931, 1136, .cooking),
        Book(
            "Mastering the Art of French Cooking", "Julia Child, Louisette Bertholle, Simone Beck", 1961, 684, .cooking,
            publisher: "Alfred A. Knopf"),
        Book("Salt, Fat, Acid, Heat", "Samin Nosrat", 2017, 480, .cooking, publisher: "Simon & Schuster"),
        Book("Kitchen Confidential", "Anthony Bourdain", 2000, 312, .biography, publisher: "Bloomsbury"),
        Book("The Story of Art", "E. H. Gombrich", 1950, 688, .art, publisher: "Phaidon"),
        Book("Ways of Seeing", "John Berger", 1972, 166, .art, publisher: "Penguin Books"),
    ]
}
