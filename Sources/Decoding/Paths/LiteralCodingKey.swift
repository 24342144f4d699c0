/// A coding key type whose string values are keys, never paths.
///
/// Adopt it for key types that hold keys read from the data itself (dynamic keys), so that a
/// key such as `"a.b"` is looked up as it is instead of as the path `a` → `b`. The keys of
/// dictionaries are always taken literally.
public protocol LiteralCodingKey: CodingKey {}
