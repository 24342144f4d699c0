/// A coding key made from any string or integer, taken literally.
///
/// Use it for hand-written `init(from:)` code that walks paths with
/// `KeyedDecodingContainer.decode(_:at:)`:
///
/// ```swift
/// let container = try decoder.container(keyedBy: AnyCodingKey.self)
/// title = try container.decode(String.self, at: "volumeInfo.title")
/// ```
///
/// `AnyCodingKey` conforms to ``LiteralCodingKey``: when it is used as the key type of a
/// container, its string values are never read as paths.
public struct AnyCodingKey: CodingKey, Hashable, Sendable, LiteralCodingKey {
    /// The key's string form.
    public var stringValue: String
    /// The integer form, with `Int.min` for none: it keeps the key at 24 bytes, so that
    /// `any CodingKey` holds it inline and coding paths built from it allocate nothing.
    private var storedIntValue: Int

    /// The key's integer form, for array positions.
    public var intValue: Int? {
        get { storedIntValue == .min ? nil : storedIntValue }
        set { storedIntValue = newValue ?? .min }
    }

    /// Creates a key from a string.
    ///
    /// - Parameter stringValue: the key.
    public init(_ stringValue: String) {
        self.stringValue = stringValue
        self.storedIntValue = .min
    }

    /// Creates a key from a string.
    ///
    /// - Parameter stringValue: the key.
    public init(stringValue: String) {
        self.init(stringValue)
    }

    /// Creates a key from an array position.
    ///
    /// - Parameter intValue: the position.
    public init(intValue: Int) {
        self.stringValue = String(intValue)
        self.storedIntValue = intValue
    }

    /// Creates a key with the same string and integer values as another key.
    ///
    /// - Parameter key: the key to copy.
    public init(_ key: some CodingKey) {
        self.stringValue = key.stringValue
        self.storedIntValue = key.intValue ?? .min
    }
}
