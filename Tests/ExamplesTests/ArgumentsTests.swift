import ExampleSupport
import Testing

/// The examples' hand-written argument parser.
@Suite struct ArgumentsTests {
    @Test func optionsAndFlagsMayStandAnywhere() throws {
        var arguments = Arguments(["add", "--store", "/tmp/b.sqlite", "3", "--live", "--member=Ann"])
        let live = arguments.flag("--live")
        let store = try arguments.option("--store")
        let member = try arguments.option("--member")
        let command = try arguments.command()
        let number = try arguments.integer(named: "number")
        try arguments.finish()
        #expect(live && store == "/tmp/b.sqlite" && member == "Ann")
        #expect(command == "add" && number == 3)
    }

    @Test func aDoubleDashIsConsumedWithTheWordAfterIt() throws {
        var arguments = Arguments(["add", "--", "--5"])
        let command = try arguments.command()
        let number = try arguments.positional(named: "number")
        try arguments.finish()
        #expect(command == "add" && number == "--5")
    }

    @Test func wrongCallsThrowUsageErrorsThatSayWhatIsWrong() {
        #expect(throws: UsageError.self) {
            var arguments = Arguments(["list", "--store"])
            _ = try arguments.option("--store")
        }
        #expect(throws: UsageError.self) {
            var arguments = Arguments(["--concurrency", "many"])
            _ = try arguments.integerOption("--concurrency", in: 1...32)
        }
        #expect(throws: UsageError.self) { try Arguments(["--frob"]).finish() }
        #expect(throws: UsageError.self) {
            var arguments = Arguments([String]())
            _ = try arguments.command()
        }
    }

    @Test func aCallWithOnlyAnUnknownOptionNamesTheOptionNotAMissingCommand() {
        var bogus = Arguments(["--bogus"], knownOptions: ["--live"])
        #expect(throws: UsageError.self) { _ = try bogus.command() }
        do {
            _ = try bogus.command()
        } catch {
            #expect(error.description == "unknown option --bogus; check its spelling against the usage below")
        }
        var known = Arguments(["--live"], knownOptions: ["--live"])
        do {
            _ = try known.command()
            Issue.record("a call without a command was accepted")
        } catch {
            #expect(error.problem == "missing command")
        }
        var valued = Arguments(["--strore=/tmp/x"], knownOptions: ["--store"])
        do {
            _ = try valued.command()
            Issue.record("a misspelt option was accepted")
        } catch {
            #expect(error.problem == "unknown option --strore")
        }
    }

    @Test func searchWordsAreTrimmedAndNeedALetterOrDigitAndAReasonableLength() throws {
        var title = Arguments(["add", "  Star", "Wars  ", "--member", "Ann"])
        _ = try title.option("--member")
        _ = try title.command()
        #expect(try title.searchWords(named: "title", example: "\"Alien\"") == "Star Wars")
        for words in [["!!!"], ["🎬", "🍿"], ["?", "-", "."], [String(repeating: "a", count: 501)]] {
            var arguments = Arguments(["add"] + words)
            _ = try arguments.command()
            #expect(throws: UsageError.self, "\(words)") {
                _ = try arguments.searchWords(named: "title", example: "\"Alien\"")
            }
        }
        var rightToLeft = Arguments(["add", "جدایی نادر از سیمین"])
        _ = try rightToLeft.command()
        #expect(try rightToLeft.searchWords(named: "title", example: "\"Alien\"") == "جدایی نادر از سیمین")
        var long = Arguments(["add", String(repeating: "é", count: 10_000)])
        _ = try long.command()
        do {
            _ = try long.searchWords(named: "title", example: "\"Alien\"")
            Issue.record("a title of 10,000 characters was accepted")
        } catch {
            #expect(error.problem.hasSuffix("is 10000 characters long, more than the 500 searched"), "\(error)")
            #expect(error.problem.count < 120)
        }
    }
}
