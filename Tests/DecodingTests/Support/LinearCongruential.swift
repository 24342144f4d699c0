/// A small deterministic generator of number texts for the differential tests.
struct LinearCongruential {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }

    /// A JSON number: an optional sign, 1 to 24 digits, an optional fraction of 1 to 24 digits.
    mutating func numberText() -> String {
        var text = next(4) == 0 ? "-" : ""
        if next(5) == 0 {
            text += "0"
        } else {
            text += String(1 + next(9))
            for _ in 0..<next(next(3) == 0 ? 24 : 8) { text += String(next(10)) }
        }
        if next(3) != 0 {
            text += "."
            for _ in 0..<(1 + next(next(4) == 0 ? 24 : 6)) { text += String(next(10)) }
        }
        return text
    }
}
