/// Compares values as SQLite's `ORDER BY` does with the `BINARY` collation, so the incremental
/// observation path can place a changed row where the query would have put it.
enum SQLiteOrder {
    /// A negative number, zero or a positive number as `a` sorts before, with or after `b`:
    /// `NULL` first, then numbers by value (integers and reals compared exactly), then text by
    /// its UTF-8 bytes, then blobs by their bytes.
    static func compare(_ a: DatabaseValue, _ b: DatabaseValue) -> Int {
        switch (a, b) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.integer(let x), .integer(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.real(let x), .real(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.integer(let x), .real(let y)): return integerReal(x, y)
        case (.real(let x), .integer(let y)): return -integerReal(y, x)
        case (.integer, _), (.real, _): return -1
        case (_, .integer), (_, .real): return 1
        case (.text(let x), .text(let y)): return bytes(x.utf8, y.utf8)
        case (.text, .blob): return -1
        case (.blob, .text): return 1
        case (.blob(let x), .blob(let y)): return bytes(x, y)
        }
    }

    /// SQLite's exact integer-to-real comparison (`sqlite3IntFloatCompare`).
    static func integerReal(_ integer: Int64, _ real: Double) -> Int {
        if real < -9_223_372_036_854_775_808.0 { return 1 }
        if real >= 9_223_372_036_854_775_808.0 { return -1 }
        let truncated = Int64(real.rounded(.towardZero))
        if integer < truncated { return -1 }
        if integer > truncated { return 1 }
        let widened = Double(integer)
        return widened < real ? -1 : (widened > real ? 1 : 0)
    }

    static func bytes<C: Collection<UInt8>>(_ x: C, _ y: C) -> Int {
        var left = x.makeIterator()
        var right = y.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let l?, let r?): if l != r { return l < r ? -1 : 1 }
            }
        }
    }

    /// Compares two sort keys (one value per sort key, `descending` per key), then row ids.
    static func compare(
        _ a: [DatabaseValue], _ rowidA: Int64, _ b: [DatabaseValue], _ rowidB: Int64, descending: [Bool]
    ) -> Int {
        for index in a.indices {
            let order = compare(a[index], b[index])
            if order != 0 { return descending[index] ? -order : order }
        }
        return rowidA < rowidB ? -1 : (rowidA > rowidB ? 1 : 0)
    }
}
