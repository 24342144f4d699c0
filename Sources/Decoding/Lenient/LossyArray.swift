/// An array property that skips elements that fail to decode instead of failing as a whole.
///
/// Each skipped element is recorded in the ``DecodingReport`` with its path and the reason.
/// A missing key or a null value decodes as an empty array (also recorded).
///
/// ```swift
/// struct PhotoPage: Decodable {
///     @LossyArray var photo: [Photo]
/// }
/// ```
@propertyWrapper
public struct LossyArray<Element: Decodable>: DecodableWithFallback {
    /// The elements that decoded, in order.
    public var wrappedValue: [Element]

    /// Creates the wrapper around elements.
    ///
    /// - Parameter wrappedValue: the elements.
    public init(wrappedValue: [Element]) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes the elements that fit `Element` and skips the rest.
    ///
    /// - Parameter decoder: the decoder to read from.
    /// - Throws: `DecodingError` when the value is not an array.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = []
        elements.reserveCapacity(container.count ?? 0)
        while !container.isAtEnd {
            let index = container.currentIndex
            do {
                elements.append(try container.decode(Element.self))
            } catch {
                let reason =
                    (error as? DecodingError).map { DecodingFailure($0).description } ?? String(describing: error)
                DecodingReport.record(container.codingPath + [AnyCodingKey(intValue: index)], .skippedElement, reason)
                // Step over the element; stop if the container cannot move on.
                if container.currentIndex == index {
                    guard (try? container.decode(SkippedValue.self)) != nil, container.currentIndex > index else {
                        break
                    }
                }
            }
        }
        wrappedValue = elements
    }

    /// An empty array.
    public static var fallback: Self? { Self(wrappedValue: []) }

    /// True: an empty default is always reported.
    public static var fallbackIsReported: Bool { true }
}

extension LossyArray: Encodable where Element: Encodable {
    /// Encodes the elements that were kept.
    ///
    /// - Parameter encoder: the encoder to write to.
    /// - Throws: `EncodingError` from the elements' own encoding.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension LossyArray: Equatable where Element: Equatable {}
extension LossyArray: Hashable where Element: Hashable {}
extension LossyArray: Sendable where Element: Sendable {}
