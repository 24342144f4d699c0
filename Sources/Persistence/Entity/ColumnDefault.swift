/// The value existing rows get when a non-optional property is added to an entity.
public struct ColumnDefault<Entity: StoredEntity>: Sendable, Hashable {
    /// The property's column.
    public let column: String
    /// The default value.
    public let value: DatabaseValue

    /// Declares the default of a field.
    ///
    /// - Parameters:
    ///   - field: the property.
    ///   - value: the value rows stored before the property existed get.
    public init<Value: QueryableValue>(_ field: Field<Entity, Value>, _ value: Value) {
        column = field.name
        self.value = value.databaseValue
    }
}
