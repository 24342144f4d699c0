extension Books {
    /// The best-known books on programming and computing, game development and Unreal Engine
    /// among them.
    static let computing: [Book] =
        Book.series(
            "The Art of Computer Programming", "Donald E. Knuth", .computers, publisher: "Addison-Wesley",
            [
                ("The Art of Computer Programming, Volume 1: Fundamental Algorithms", 1968, 634),
                ("The Art of Computer Programming, Volume 2: Seminumerical Algorithms", 1969, 624),
                ("The Art of Computer Programming, Volume 3: Sorting and Searching", 1973, 722),
                ("The Art of Computer Programming, Volume 4A: Combinatorial Algorithms, Part 1", 2011, 883),
            ]) + programming + engineering + gameDevelopment

    /// Languages, algorithms and the classics of the craft.
    static let programming: [Book] = [
        Book(
            "The Psychology of Computer Programming", "Gerald M. Weinberg", 1971, 288, .computers,
            publisher: "Van Nostrand Reinhold"),
        Book(
            "The Elements of Programming Style", "Brian W. Kernighan, P. J. Plauger", 1974, 147, .computers,
            publisher: "McGraw-Hill"),
        Book("Software Tools", "Brian W. Kernighan, P. J. Plauger", 1976, 338, .computers, publisher: "Addison-Wesley"),
        Book(
            "Algorithms + Data Structures = Programs", "Niklaus Wirth", 1976, 366, .computers,
            publisher: "Prentice-Hall"),
        Book(
            "The C Programming Language", "Brian W. Kernighan, Dennis M. Ritchie", 1978, 228, .computers,
            publisher: "Prentice Hall"),
        Book(
            "Smalltalk-80", "Adele Goldberg, David Robson", 1983, 714, .computers, publisher: "Addison-Wesley",
            subtitle: "The Language and Its Implementation"),
        Book("Algorithms", "Robert Sedgewick", 1983, 551, .computers, publisher: "Addison-Wesley"),
        Book(
            "The UNIX Programming Environment", "Brian W. Kernighan, Rob Pike", 1984, 357, .computers,
            publisher: "Prentice Hall"),
        Book(
            "Structure and Interpretation of Computer Programs", "Harold Abelson, Gerald Jay Sussman", 1985, 542,
            .computers, publisher: "MIT Press"),
        Book("The C++ Programming Language", "Bjarne Stroustrup", 1985, 328, .computers, publisher: "Addison-Wesley"),
        Book("Programming Pearls", "Jon Bentley", 1986, 195, .computers, publisher: "Addison-Wesley"),
        Book(
            "Compilers: Principles, Techniques, and Tools", "Alfred V. Aho, Ravi Sethi, Jeffrey D. Ullman", 1986, 796,
            .computers, publisher: "Addison-Wesley"),
        Book(
            "Concrete Mathematics", "Ronald L. Graham, Donald E. Knuth, Oren Patashnik", 1989, 625, .mathematics,
            publisher: "Addison-Wesley"),
        Book("C++ Primer", "Stanley B. Lippman", 1989, 976, .computers, publisher: "Addison-Wesley"),
        Book(
            "Introduction to Algorithms", "Thomas H. Cormen, Charles E. Leiserson, Ronald L. Rivest", 1990, 1028,
            .computers, publisher: "MIT Press"),
        Book("Effective C++", "Scott Meyers", 1991, 320, .computers, publisher: "Addison-Wesley"),
        Book(
            "Paradigms of Artificial Intelligence Programming", "Peter Norvig", 1992, 946, .computers,
            publisher: "Morgan Kaufmann"),
        Book(
            "Advanced Programming in the UNIX Environment", "W. Richard Stevens", 1992, 744, .computers,
            publisher: "Addison-Wesley"),
        Book(
            "Design Patterns", "Erich Gamma, Richard Helm, Ralph Johnson, John Vlissides", 1994, 395, .computers,
            publisher: "Addison-Wesley", subtitle: "Elements of Reusable Object-Oriented Software"),
        Book(
            "The Little Schemer", "Daniel P. Friedman, Matthias Felleisen", 1995, 216, .computers,
            publisher: "MIT Press"),
        Book(
            "Artificial Intelligence: A Modern Approach", "Stuart Russell, Peter Norvig", 1995, 932, .computers,
            publisher: "Prentice Hall"),
        Book("Programming Python", "Mark Lutz", 1996, 880, .computers, publisher: "O'Reilly & Associates"),
        Book(
            "JavaScript: The Definitive Guide", "David Flanagan", 1996, 706, .computers,
            publisher: "O'Reilly & Associates"),
        Book("The Algorithm Design Manual", "Steven S. Skiena", 1997, 486, .computers, publisher: "Springer"),
        Book("Machine Learning", "Tom M. Mitchell", 1997, 414, .computers, publisher: "McGraw-Hill"),
        Book(
            "Purely Functional Data Structures", "Chris Okasaki", 1998, 220, .computers,
            publisher: "Cambridge University Press"),
        Book(
            "Reinforcement Learning: An Introduction", "Richard S. Sutton, Andrew G. Barto", 1998, 322, .computers,
            publisher: "MIT Press"),
        Book("Learning Python", "Mark Lutz", 1999, 366, .computers, publisher: "O'Reilly & Associates"),
        Book(
            "The Practice of Programming", "Brian W. Kernighan, Rob Pike", 1999, 267, .computers,
            publisher: "Addison-Wesley"),
        Book(
            "Code", "Charles Petzold", 1999, 393, .computers, publisher: "Microsoft Press",
            subtitle: "The Hidden Language of Computer Hardware and Software"),
        Book("Programming Ruby", "Dave Thomas, Andy Hunt", 2000, 564, .computers, publisher: "Addison-Wesley"),
        Book("Effective Java", "Joshua Bloch", 2001, 252, .computers, publisher: "Addison-Wesley"),
        Book(
            "The Elements of Statistical Learning", "Trevor Hastie, Robert Tibshirani, Jerome Friedman", 2001, 533,
            .computers, publisher: "Springer"),
        Book(
            "How to Design Programs", "Matthias Felleisen, Robert Bruce Findler, Matthew Flatt, Shriram Krishnamurthi",
            2001, 720, .computers, publisher: "MIT Press"),
        Book(
            "Python Cookbook", "Alex Martelli, David Ascher", 2002, 608, .computers, publisher: "O'Reilly & Associates"),
        Book("Hacker's Delight", "Henry S. Warren Jr.", 2002, 306, .computers, publisher: "Addison-Wesley"),
        Book("Types and Programming Languages", "Benjamin C. Pierce", 2002, 623, .computers, publisher: "MIT Press"),
        Book(
            "Computer Systems: A Programmer's Perspective", "Randal E. Bryant, David R. O'Hallaron", 2002, 978,
            .computers, publisher: "Prentice Hall"),
        Book("Programming in Objective-C", "Stephen G. Kochan", 2003, 576, .computers, publisher: "Sams Publishing"),
        Book("Cocoa Programming for Mac OS X", "Aaron Hillegass", 2002, 416, .computers, publisher: "Addison-Wesley"),
        Book("Hacking: The Art of Exploitation", "Jon Erickson", 2003, 241, .computers, publisher: "No Starch Press"),
        Book("The Art of UNIX Programming", "Eric S. Raymond", 2003, 560, .computers, publisher: "Addison-Wesley"),
        Book(
            "Head First Design Patterns", "Eric Freeman, Elisabeth Freeman, Kathy Sierra, Bert Bates", 2004, 694,
            .computers, publisher: "O'Reilly Media"),
        Book("Practical Common Lisp", "Peter Seibel", 2005, 528, .computers, publisher: "Apress"),
        Book(
            "Java Concurrency in Practice",
            "Brian Goetz, Tim Peierls, Joshua Bloch, Joseph Bowbeer, David Holmes, Doug Lea", 2006, 403, .computers,
            publisher: "Addison-Wesley"),
        Book(
            "Pattern Recognition and Machine Learning", "Christopher M. Bishop", 2006, 738, .computers,
            publisher: "Springer"),
        Book("The Definitive Guide to SQLite", "Michael Owens", 2006, 464, .computers, publisher: "Apress"),
        Book("Beautiful Code", "Andy Oram, Greg Wilson", 2007, 593, .computers, publisher: "O'Reilly Media"),
        Book("JavaScript: The Good Parts", "Douglas Crockford", 2008, 172, .computers, publisher: "O'Reilly Media"),
        Book(
            "Programming in Scala", "Martin Odersky, Lex Spoon, Bill Venners", 2008, 754, .computers,
            publisher: "Artima"),
        Book(
            "Real World Haskell", "Bryan O'Sullivan, John Goerzen, Don Stewart", 2008, 710, .computers,
            publisher: "O'Reilly Media"),
        Book(
            "The Ruby Programming Language", "David Flanagan, Yukihiro Matsumoto", 2008, 446, .computers,
            publisher: "O'Reilly Media"),
        Book("The Annotated Turing", "Charles Petzold", 2008, 372, .computers, publisher: "Wiley"),
        Book("Cracking the Coding Interview", "Gayle Laakmann McDowell", 2008, 687, .computers, publisher: "CareerCup"),
        Book("Coders at Work", "Peter Seibel", 2009, 632, .computers, publisher: "Apress"),
        Book("Pro Git", "Scott Chacon", 2009, 288, .computers, publisher: "Apress"),
        Book("Land of Lisp", "Conrad Barski", 2010, 504, .computers, publisher: "No Starch Press"),
        Book(
            "Seven Languages in Seven Weeks", "Bruce A. Tate", 2010, 330, .computers, publisher: "Pragmatic Bookshelf"),
        Book("Using SQLite", "Jay A. Kreibich", 2010, 528, .computers, publisher: "O'Reilly Media"),
        Book(
            "iOS Programming", "Joe Conway, Aaron Hillegass", 2010, 570, .computers, publisher: "Big Nerd Ranch",
            subtitle: "The Big Nerd Ranch Guide"),
        Book(
            "Learn You a Haskell for Great Good!", "Miran Lipovača", 2011, 400, .computers, publisher: "No Starch Press"
        ),
        Book("Eloquent JavaScript", "Marijn Haverbeke", 2011, 224, .computers, publisher: "No Starch Press"),
        Book("Python for Data Analysis", "Wes McKinney", 2012, 470, .computers, publisher: "O'Reilly Media"),
        Book("Think Python", "Allen B. Downey", 2012, 300, .computers, publisher: "O'Reilly Media"),
        Book("The Linux Command Line", "William E. Shotts Jr.", 2012, 480, .computers, publisher: "No Starch Press"),
        Book("A Tour of C++", "Bjarne Stroustrup", 2013, 192, .computers, publisher: "Addison-Wesley"),
        Book("The Swift Programming Language", "Apple Inc.", 2014, 500, .computers, publisher: "Apple Inc."),
        Book(
            "Functional Swift", "Chris Eidhof, Florian Kugler, Wouter Swierstra", 2014, 200, .computers,
            publisher: "objc.io"),
        Book("Effective Modern C++", "Scott Meyers", 2014, 334, .computers, publisher: "O'Reilly Media"),
        Book(
            "Swift Programming", "Matthew Mathias, John Gallagher", 2015, 440, .computers, publisher: "Big Nerd Ranch",
            subtitle: "The Big Nerd Ranch Guide"),
        Book("Python Crash Course", "Eric Matthes", 2015, 560, .computers, publisher: "No Starch Press"),
        Book(
            "Automate the Boring Stuff with Python", "Al Sweigart", 2015, 504, .computers, publisher: "No Starch Press"),
        Book("Fluent Python", "Luciano Ramalho", 2015, 792, .computers, publisher: "O'Reilly Media"),
        Book("Effective Python", "Brett Slatkin", 2015, 256, .computers, publisher: "Addison-Wesley"),
        Book(
            "The Go Programming Language", "Alan A. A. Donovan, Brian W. Kernighan", 2015, 380, .computers,
            publisher: "Addison-Wesley"),
        Book(
            "Advanced Swift", "Chris Eidhof, Ole Begemann, Airspeed Velocity", 2016, 400, .computers,
            publisher: "objc.io"),
        Book("Grokking Algorithms", "Aditya Bhargava", 2016, 256, .computers, publisher: "Manning Publications"),
        Book(
            "Deep Learning", "Ian Goodfellow, Yoshua Bengio, Aaron Courville", 2016, 775, .computers,
            publisher: "MIT Press"),
        Book("Programming Rust", "Jim Blandy, Jason Orendorff", 2017, 622, .computers, publisher: "O'Reilly Media"),
        Book(
            "Hands-On Machine Learning with Scikit-Learn and TensorFlow", "Aurélien Géron", 2017, 572, .computers,
            publisher: "O'Reilly Media"),
        Book(
            "The Rust Programming Language", "Steve Klabnik, Carol Nichols", 2018, 552, .computers,
            publisher: "No Starch Press"),
        Book(
            "Operating Systems: Three Easy Pieces", "Remzi H. Arpaci-Dusseau, Andrea C. Arpaci-Dusseau", 2018, 686,
            .computers),
        Book("Thinking in SwiftUI", "Chris Eidhof, Florian Kugler", 2020, 180, .computers, publisher: "objc.io"),
        Book("Rust in Action", "Tim McNamara", 2021, 456, .computers, publisher: "Manning Publications"),
        Book("Rust for Rustaceans", "Jon Gjengset", 2021, 280, .computers, publisher: "No Starch Press"),
        Book("Crafting Interpreters", "Robert Nystrom", 2021, 640, .computers, publisher: "Genever Benning"),
        Book("Rust Atomics and Locks", "Mara Bos", 2023, 250, .computers, publisher: "O'Reilly Media"),
    ]

    /// Software engineering: design, teams, operations and the history of the trade.
    static let engineering: [Book] = [
        Book("The Mythical Man-Month", "Frederick P. Brooks Jr.", 1975, 322, .computers, publisher: "Addison-Wesley"),
        Book(
            "The Soul of a New Machine", "Tracy Kidder", 1981, 293, .computers, publisher: "Little, Brown and Company"),
        Book(
            "Operating System Concepts", "James L. Peterson, Abraham Silberschatz", 1983, 548, .computers,
            publisher: "Addison-Wesley"),
        Book("Computer Networks", "Andrew S. Tanenbaum", 1981, 517, .computers, publisher: "Prentice Hall"),
        Book(
            "Hackers: Heroes of the Computer Revolution", "Steven Levy", 1984, 458, .computers,
            publisher: "Anchor Press"),
        Book(
            "Database System Concepts", "Abraham Silberschatz, Henry F. Korth", 1986, 606, .computers,
            publisher: "McGraw-Hill"),
        Book("Peopleware", "Tom DeMarco, Timothy Lister", 1987, 188, .business, publisher: "Dorset House"),
        Book("The Design of Everyday Things", "Donald A. Norman", 1988, 257, .computers),
        Book("The Cuckoo's Egg", "Clifford Stoll", 1989, 326, .computers, publisher: "Doubleday"),
        Book(
            "Computer Architecture: A Quantitative Approach", "John L. Hennessy, David A. Patterson", 1990, 594,
            .computers, publisher: "Morgan Kaufmann"),
        Book("Modern Operating Systems", "Andrew S. Tanenbaum", 1992, 728, .computers, publisher: "Prentice Hall"),
        Book("Code Complete", "Steve McConnell", 1993, 857, .computers, publisher: "Microsoft Press"),
        Book(
            "Computer Organization and Design", "David A. Patterson, John L. Hennessy", 1994, 648, .computers,
            publisher: "Morgan Kaufmann"),
        Book(
            "TCP/IP Illustrated, Volume 1: The Protocols", "W. Richard Stevens", 1994, 576, .computers,
            publisher: "Addison-Wesley"),
        Book("Showstopper!", "G. Pascal Zachary", 1994, 312, .computers, publisher: "Free Press"),
        Book(
            "The Pragmatic Programmer", "Andrew Hunt, David Thomas", 1999, 352, .computers, publisher: "Addison-Wesley",
            subtitle: "From Journeyman to Master"),
        Book(
            "Refactoring", "Martin Fowler", 1999, 431, .computers, publisher: "Addison-Wesley",
            subtitle: "Improving the Design of Existing Code"),
        Book("Extreme Programming Explained", "Kent Beck", 1999, 190, .computers, publisher: "Addison-Wesley"),
        Book(
            "The Cathedral and the Bazaar", "Eric S. Raymond", 1999, 268, .computers, publisher: "O'Reilly & Associates"
        ),
        Book("Don't Make Me Think", "Steve Krug", 2000, 195, .computers, publisher: "New Riders"),
        Book("Test Driven Development: By Example", "Kent Beck", 2002, 240, .computers, publisher: "Addison-Wesley"),
        Book(
            "Patterns of Enterprise Application Architecture", "Martin Fowler", 2002, 533, .computers,
            publisher: "Addison-Wesley"),
        Book(
            "HTTP: The Definitive Guide", "David Gourley, Brian Totty", 2002, 656, .computers,
            publisher: "O'Reilly & Associates"),
        Book(
            "Domain-Driven Design", "Eric Evans", 2003, 560, .computers, publisher: "Addison-Wesley",
            subtitle: "Tackling Complexity in the Heart of Software"),
        Book(
            "Working Effectively with Legacy Code", "Michael Feathers", 2004, 456, .computers,
            publisher: "Prentice Hall"),
        Book("Joel on Software", "Joel Spolsky", 2004, 362, .computers, publisher: "Apress"),
        Book("How Linux Works", "Brian Ward", 2004, 366, .computers, publisher: "No Starch Press"),
        Book("Release It!", "Michael T. Nygard", 2007, 350, .computers, publisher: "Pragmatic Bookshelf"),
        Book(
            "RESTful Web Services", "Leonard Richardson, Sam Ruby", 2007, 448, .computers, publisher: "O'Reilly Media"),
        Book("Dreaming in Code", "Scott Rosenberg", 2007, 400, .computers, publisher: "Crown Publishers"),
        Book(
            "Clean Code", "Robert C. Martin", 2008, 464, .computers, publisher: "Prentice Hall",
            subtitle: "A Handbook of Agile Software Craftsmanship"),
        Book(
            "Growing Object-Oriented Software, Guided by Tests", "Steve Freeman, Nat Pryce", 2009, 384, .computers,
            publisher: "Addison-Wesley"),
        Book("Continuous Delivery", "Jez Humble, David Farley", 2010, 512, .computers, publisher: "Addison-Wesley"),
        Book("SQL Antipatterns", "Bill Karwin", 2010, 328, .computers, publisher: "Pragmatic Bookshelf"),
        Book("The Clean Coder", "Robert C. Martin", 2011, 256, .computers, publisher: "Prentice Hall"),
        Book(
            "High Performance Browser Networking", "Ilya Grigorik", 2013, 400, .computers, publisher: "O'Reilly Media"),
        Book(
            "The Phoenix Project", "Gene Kim, Kevin Behr, George Spafford", 2013, 345, .computers,
            publisher: "IT Revolution Press"),
        Book("Building Microservices", "Sam Newman", 2015, 280, .computers, publisher: "O'Reilly Media"),
        Book(
            "Site Reliability Engineering", "Betsy Beyer, Chris Jones, Jennifer Petoff, Niall Richard Murphy", 2016,
            552, .computers, publisher: "O'Reilly Media"),
        Book(
            "The DevOps Handbook", "Gene Kim, Jez Humble, Patrick Debois, John Willis", 2016, 480, .computers,
            publisher: "IT Revolution Press"),
        Book(
            "Designing Data-Intensive Applications", "Martin Kleppmann", 2017, 616, .computers,
            publisher: "O'Reilly Media"),
        Book("Clean Architecture", "Robert C. Martin", 2017, 432, .computers, publisher: "Prentice Hall"),
        Book(
            "Kubernetes: Up and Running", "Kelsey Hightower, Brendan Burns, Joe Beda", 2017, 202, .computers,
            publisher: "O'Reilly Media"),
        Book("The Manager's Path", "Camille Fournier", 2017, 244, .business, publisher: "O'Reilly Media"),
        Book(
            "Accelerate", "Nicole Forsgren, Jez Humble, Gene Kim", 2018, 288, .computers,
            publisher: "IT Revolution Press"),
        Book("A Philosophy of Software Design", "John Ousterhout", 2018, 178, .computers, publisher: "Yaknyam Press"),
        Book("Team Topologies", "Matthew Skelton, Manuel Pais", 2019, 240, .business, publisher: "IT Revolution Press"),
        Book("An Elegant Puzzle", "Will Larson", 2019, 289, .business, publisher: "Stripe Press"),
        Book(
            "Software Engineering at Google", "Titus Winters, Tom Manshreck, Hyrum Wright", 2020, 599, .computers,
            publisher: "O'Reilly Media"),
    ]

    /// Game design and development, Unreal Engine among them.
    static let gameDevelopment: [Book] = [
        Book(
            "The Art of Computer Game Design", "Chris Crawford", 1984, 113, .computers, publisher: "Osborne/McGraw-Hill"
        ),
        Book(
            "Real-Time Rendering", "Tomas Akenine-Möller, Eric Haines", 1999, 482, .computers, publisher: "A K Peters"),
        Book(
            "Physics for Game Developers", "David M. Bourg", 2001, 326, .computers, publisher: "O'Reilly & Associates"),
        Book(
            "Rules of Play", "Katie Salen, Eric Zimmerman", 2003, 688, .computers, publisher: "MIT Press",
            subtitle: "Game Design Fundamentals"),
        Book("Masters of Doom", "David Kushner", 2003, 339, .computers, publisher: "Random House"),
        Book("A Theory of Fun for Game Design", "Raph Koster", 2004, 256, .computers, publisher: "Paraglyph Press"),
        Book(
            "Game Design Workshop", "Tracy Fullerton, Christopher Swain, Steven Hoffman", 2004, 480, .computers,
            publisher: "CMP Books"),
        Book(
            "The Art of Game Design", "Jesse Schell", 2008, 489, .computers, publisher: "Morgan Kaufmann",
            subtitle: "A Book of Lenses"),
        Book("Game Engine Architecture", "Jason Gregory", 2009, 864, .computers, publisher: "A K Peters"),
        Book(
            "Mastering Unreal Technology, Volume I: Introduction to Level Design with Unreal Engine 3",
            "Jason Busby, Zak Parrish, Jeff Wilson", 2009, 896, .computers, publisher: "Sams Publishing"),
        Book(
            "Unreal Development Kit Game Design Cookbook", "Thomas Mooney", 2012, 544, .computers,
            publisher: "Packt Publishing"),
        Book("Game Programming Patterns", "Robert Nystrom", 2014, 354, .computers, publisher: "Genever Benning"),
        Book(
            "Blueprints Visual Scripting for Unreal Engine", "Brenden Sewell", 2015, 188, .computers,
            publisher: "Packt Publishing"),
        Book(
            "Unreal Engine Game Development Cookbook", "John P. Doran", 2015, 326, .computers,
            publisher: "Packt Publishing"),
        Book(
            "Unreal Engine Physics Essentials", "Katax Emperore, Devin Sherry", 2015, 220, .computers,
            publisher: "Packt Publishing"),
        Book(
            "Unreal Engine Lighting and Rendering Essentials", "Muhammad A. Moniem", 2015, 158, .computers,
            publisher: "Packt Publishing"),
        Book("Unity in Action", "Joseph Hocking", 2015, 352, .computers, publisher: "Manning Publications"),
        Book(
            "Unreal Engine 4 Game Development Essentials", "Satheesh PV", 2016, 224, .computers,
            publisher: "Packt Publishing"),
        Book(
            "Unreal Engine 4 Scripting with C++ Cookbook", "William Sherif, Stephen Whittle", 2016, 431, .computers,
            publisher: "Packt Publishing"),
        Book("Mastering Unreal Engine 4.X", "Muhammad A. Moniem", 2016, 512, .computers, publisher: "Packt Publishing"),
        Book(
            "Learning Unreal Engine Game Development", "Joanna Lee", 2016, 274, .computers,
            publisher: "Packt Publishing"),
        Book(
            "Unreal Engine 4 AI Programming Essentials", "Peter L. Newton, Jie Feng", 2016, 188, .computers,
            publisher: "Packt Publishing"),
        Book("Unreal Engine VR Cookbook", "Mitch McCaffrey", 2017, 336, .computers, publisher: "Addison-Wesley"),
        Book("Blood, Sweat, and Pixels", "Jason Schreier", 2017, 304, .computers, publisher: "Harper"),
        Book(
            "Godot Engine Game Development Projects", "Chris Bradfield", 2018, 298, .computers,
            publisher: "Packt Publishing"),
        Book(
            "Unreal Engine 4 Game Development Quick Start Guide", "Rachel Cordone", 2019, 198, .computers,
            publisher: "Packt Publishing"),
        Book(
            "Unreal Engine 4 Virtual Reality Projects", "Kevin Mack, Robert Ruud", 2019, 632, .computers,
            publisher: "Packt Publishing"),
        Book(
            "Unreal Engine 4.x Scripting with C++ Cookbook", "John P. Doran, William Sherif, Stephen Whittle", 2019,
            708, .computers, publisher: "Packt Publishing"),
        Book(
            "Elevating Game Experiences with Unreal Engine 5",
            "Gonçalo Marques, Devin Sherry, David Pereira, Hammad Fozi", 2022, 760, .computers,
            publisher: "Packt Publishing"),
        Book(
            "Blueprints Visual Scripting for Unreal Engine 5", "Marcos Romero, Brenden Sewell", 2022, 526, .computers,
            publisher: "Packt Publishing"),
        Book(
            "Unreal Engine 5 Character Creation, Animation, and Cinematics", "Henk Venter, Wilhelm Ogterop", 2022, 576,
            .computers, publisher: "Packt Publishing"),
        Book(
            "Unreal Engine 5 Game Development with C++ Scripting", "Zhenyu George Li", 2023, 384, .computers,
            publisher: "Packt Publishing"),
        Book(
            "Multiplayer Game Development with Unreal Engine 5", "Marco Secchi", 2023, 330, .computers,
            publisher: "Packt Publishing"),
        Book(
            "Game Development Patterns with Unreal Engine 5", "Stuart Butler, Tom Oliver", 2024, 254, .computers,
            publisher: "Packt Publishing"),
    ]
}
