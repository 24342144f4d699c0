/// An HTTP request method, such as ``get`` or ``post``.
///
/// Methods are values; the common ones are static constants, and any other token can be
/// made with ``init(rawValue:)``:
///
/// ```swift
/// let method: HTTPMethod = .get
/// let custom = HTTPMethod(rawValue: "PROPFIND")
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method's name as sent on the request line, such as `GET`.
    public let rawValue: String

    /// Creates a method from its name; the name is uppercased.
    ///
    /// - Parameter rawValue: the method's name, such as `"GET"`.
    public init(rawValue: String) {
        self.rawValue = rawValue.uppercased()
    }

    /// `GET`: read a resource.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: read a resource's headers only.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`: create or submit; not idempotent.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replace a resource.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`: change part of a resource; not idempotent.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`: ask what a resource supports.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// Whether sending the request twice has the same effect as sending it once
    /// (RFC 9110 §9.2.2): `GET`, `HEAD`, `OPTIONS`, `TRACE`, `PUT` and `DELETE`.
    ///
    /// ``RetryPolicy`` retries only idempotent methods unless told otherwise.
    public var isIdempotent: Bool {
        ["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"].contains(rawValue)
    }

    /// The method's name, such as `GET`.
    public var description: String { rawValue }
}
