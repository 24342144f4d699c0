/// One row of a raw-SQL query: column names and their values.
public struct Row: Sendable, Hashable {
    /// The column names, in the order of the query's result columns.
    public let columns: [String]
    /// The values, one per column.
    public let values: [DatabaseValue]

    /// Creates a row.
    ///
    /// - Parameters:
    ///   - columns: the column names.
    ///   - values: one value per column.
    init(columns: [String], values: [DatabaseValue]) {
        self.columns = columns
        self.values = values
    }

    /// The value of the first column named `column`, or `nil` when there is no such column.
    ///
    /// - Parameter column: a result column's name.
    public subscript(column: String) -> DatabaseValue? {
        columns.firstIndex(of: column).map { values[$0] }
    }

    /// The value at a column position.
    ///
    /// - Parameter index: a column position, from 0.
    public subscript(index: Int) -> DatabaseValue { values[index] }
}
