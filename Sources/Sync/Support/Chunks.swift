/// Runs `body` on `items` 500 at a time: SQLite binds at most 32,766 values a statement, and a
/// shorter list keeps each statement's plan cheap.
func inChunks<T>(_ items: [T], _ body: ([T]) throws -> Void) throws {
    var start = 0
    while start < items.count {
        try body(Array(items[start..<min(start + 500, items.count)]))
        start += 500
    }
}
