/// Text the offline catalogues search, matched the way TMDB's and Google Books' searches
/// match: case, accents and width ignored, words in any order, each query word the start of
/// a word of the text (`alien` finds `Aliens`), a possessive's apostrophe ignored
/// (`schindlers` finds `Schindler's`). A query word in a script written without spaces (Chinese, Japanese, Thai)
/// may stand anywhere in a word (`神隠し` finds `千と千尋の神隠し`).
struct SearchText: Sendable {
    /// The folded words, each once.
    let words: Set<String>
    /// Each whole text, folded, with single spaces: what an exact query equals.
    let wholes: Set<String>

    /// The longest query the catalogues read, in characters; a longer one matches nothing.
    static let maximumQueryLength = 1_000

    /// Indexes texts, such as a title, its original title and its other titles.
    init(_ texts: [String]) {
        words = Set(texts.flatMap(searchWords))
        wholes = Set(texts.map(wholeForm))
    }

    /// Whether every word of the query is in the text; false for a query without words.
    func contains(_ query: Query) -> Bool {
        guard !query.words.isEmpty else { return false }
        return query.words.allSatisfy { word in
            words.contains(word)
                || words.contains { $0.hasPrefix(word) || (query.unspaced.contains(word) && $0.contains(word)) }
        }
    }

    /// Whether one of the texts is the whole query.
    func isExactly(_ query: Query) -> Bool {
        wholes.contains(query.whole)
    }

    /// A query, folded once for matching against many texts.
    struct Query: Sendable {
        /// The query's words; empty for a query of punctuation, symbols or emoji only, and
        /// for one longer than ``SearchText/maximumQueryLength``.
        let words: [String]
        /// The words written in a script without spaces.
        let unspaced: Set<String>
        /// The whole query, folded, with single spaces.
        let whole: String

        /// Folds `text`.
        init(_ text: String) {
            guard text.count <= SearchText.maximumQueryLength else {
                words = []
                unspaced = []
                whole = ""
                return
            }
            var seen = Set<String>()
            words = searchWords(text).filter { seen.insert($0).inserted }
            unspaced = Set(words.filter { $0.unicodeScalars.contains(where: isUnspacedScript) })
            whole = wholeForm(text)
        }
    }
}

/// Folds a string for matching: lower case, no diacritics, full-width letters as ordinary
/// ones, so `amelie` finds `Amélie`.
func folded(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
}

/// The folded words of a text, split on anything that is not a letter or a digit; an
/// English possessive's apostrophe is dropped (`Schindler's` is `schindlers`), any other
/// apostrophe splits (`d'une` is `d une`).
func searchWords(_ text: String) -> [String] {
    let characters = Array(folded(text))
    var words: [String] = []
    var word = ""
    for (index, character) in characters.enumerated() {
        if character.isLetter || character.isNumber {
            word.append(character)
            continue
        }
        let next = index + 1 < characters.count ? characters[index + 1] : " "
        let afterNext = index + 2 < characters.count ? characters[index + 2] : " "
        let isPossessive = (character == "'" || character == "’") && next == "s" && !afterNext.isLetter
        if isPossessive, !word.isEmpty { continue }
        if !word.isEmpty { words.append(word) }
        word = ""
    }
    if !word.isEmpty { words.append(word) }
    return words
}

/// A text folded whole, with its runs of white space made single spaces.
private func wholeForm(_ text: String) -> String {
    folded(text).split(whereSeparator: \.isWhitespace).joined(separator: " ")
}

/// Whether a character belongs to a script written without spaces between words: Han,
/// Hiragana, Katakana or Thai.
private func isUnspacedScript(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0E00...0x0E7F, 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF: true
    default: false
    }
}
