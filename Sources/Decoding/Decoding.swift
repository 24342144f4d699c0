/// Nested-key `Decodable` helpers for real API JSON (placeholder: the module lands with issue 2).
public enum DecodingModule {}
