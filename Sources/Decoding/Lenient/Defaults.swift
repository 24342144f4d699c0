/// Default value providers for the common cases.
public enum Defaults {
    /// Supplies `false` for a missing or null `Bool`: `@DefaultValue<Defaults.False> var isEbook: Bool`.
    public enum False: DefaultValueProvider {
        /// The value used when the key is missing or null: `false`.
        public static var defaultValue: Bool { false }
    }

    /// Supplies `true` for a missing or null `Bool`: `@DefaultValue<Defaults.True> var isPublic: Bool`.
    public enum True: DefaultValueProvider {
        /// The value used when the key is missing or null: `true`.
        public static var defaultValue: Bool { true }
    }

    /// Supplies zero for a missing or null number: `@DefaultValue<Defaults.Zero<Int>> var pageCount: Int`.
    public enum Zero<Number: Decodable & Numeric>: DefaultValueProvider {
        /// The value used when the key is missing or null: `0`.
        public static var defaultValue: Number { 0 }
    }

    /// Supplies `""` for a missing or null `String`: `@DefaultValue<Defaults.EmptyString> var subtitle: String`.
    public enum EmptyString: DefaultValueProvider {
        /// The value used when the key is missing or null: the empty string.
        public static var defaultValue: String { "" }
    }
}
