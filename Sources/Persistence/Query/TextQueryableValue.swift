/// Text fields (`String` and `String?`) support substring and pattern filters.
public protocol TextQueryableValue: QueryableValue {}

extension String: TextQueryableValue {}
extension Optional: TextQueryableValue where Wrapped == String {}
