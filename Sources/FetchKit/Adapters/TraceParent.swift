import Foundation

/// A W3C Trace Context `traceparent` (https://www.w3.org/TR/trace-context/): the trace a request
/// belongs to and the span that sent it, so a trace can follow a request into the servers it
/// reaches, with no tracing library.
///
/// ``TraceContextAdapter`` sends one with every request. Make one for a new trace with
/// ``random(sampled:)``, read one from a header with ``init(_:)``, or build one from the ids your
/// tracer already has with ``init(traceID:parentID:sampled:)``.
///
/// ```swift
/// let trace = TraceParent.random()
/// print(trace)  // 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01
/// ```
public struct TraceParent: Sendable, Hashable, CustomStringConvertible {
    /// The trace's id: 32 lowercase hexadecimal digits, not all zero.
    public let traceID: String
    /// The id of the span that sends the request (the `parent-id` field): 16 lowercase
    /// hexadecimal digits, not all zero.
    public let parentID: String
    /// Whether the caller records the trace (the `sampled` flag).
    public let sampled: Bool

    /// Creates a trace context from ids your tracer has.
    ///
    /// - Parameters:
    ///   - traceID: 32 hexadecimal digits, not all zero (upper case is accepted and lowered).
    ///   - parentID: 16 hexadecimal digits, not all zero.
    ///   - sampled: whether the trace is recorded.
    /// - Returns: `nil` when an id has the wrong length, a digit that is not hexadecimal, or is all zero.
    public init?(traceID: String, parentID: String, sampled: Bool = true) {
        let traceID = traceID.lowercased()
        let parentID = parentID.lowercased()
        guard Self.isID(traceID, digits: 32), Self.isID(parentID, digits: 16) else { return nil }
        self.traceID = traceID
        self.parentID = parentID
        self.sampled = sampled
    }

    /// Reads a `traceparent` header's value, such as
    /// `00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01`.
    ///
    /// Version `00` must have exactly four fields; a later version may add fields after the
    /// fourth, which are ignored, as the recommendation says. Version `ff` is invalid.
    ///
    /// - Parameter header: the header's value.
    /// - Returns: `nil` when the value is not a valid `traceparent`.
    public init?(_ header: String) {
        let fields = header.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count >= 4, let version = fields.first, Self.isLowercaseHex(version, digits: 2),
            version != "ff", version != "00" || fields.count == 4, Self.isLowercaseHex(fields[3], digits: 2),
            let flags = UInt8(fields[3], radix: 16), Self.isID(String(fields[1]), digits: 32),
            Self.isID(String(fields[2]), digits: 16)
        else { return nil }
        self.init(traceID: String(fields[1]), parentID: String(fields[2]), sampled: flags & 1 == 1)
    }

    /// A new trace, with random ids from the system's random generator.
    ///
    /// - Parameter sampled: whether the trace is recorded.
    /// - Returns: the trace context.
    public static func random(sampled: Bool = true) -> TraceParent {
        var generator = SystemRandomNumberGenerator()
        return TraceParent(
            checkedTraceID: Self.randomID(bytes: 16, &generator), parentID: Self.randomID(bytes: 8, &generator),
            sampled: sampled)
    }

    /// The same trace with a new span id: the context a request sent on behalf of this span carries.
    ///
    /// - Returns: the child's context.
    public func child() -> TraceParent {
        var generator = SystemRandomNumberGenerator()
        return TraceParent(checkedTraceID: traceID, parentID: Self.randomID(bytes: 8, &generator), sampled: sampled)
    }

    /// The header's value: `00-<trace id>-<parent id>-<flags>`.
    public var description: String { "00-\(traceID)-\(parentID)-\(sampled ? "01" : "00")" }

    private init(checkedTraceID traceID: String, parentID: String, sampled: Bool) {
        self.traceID = traceID
        self.parentID = parentID
        self.sampled = sampled
    }

    /// Whether `text` is `digits` lowercase hexadecimal digits (the header's `HEXDIGLC`).
    private static func isLowercaseHex(_ text: some StringProtocol, digits: Int) -> Bool {
        text.utf8.count == digits && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Whether `text` is `digits` lowercase hexadecimal digits, not all zero.
    private static func isID(_ text: String, digits: Int) -> Bool {
        isLowercaseHex(text, digits: digits) && text.utf8.contains { $0 != 0x30 }
    }

    /// `bytes` random bytes as lowercase hexadecimal digits, never all zero.
    private static func randomID(bytes: Int, _ generator: inout SystemRandomNumberGenerator) -> String {
        let digits = Array("0123456789abcdef".utf8)
        while true {
            var text: [UInt8] = []
            text.reserveCapacity(bytes * 2)
            var nonZero = false
            for _ in 0..<bytes {
                let byte = UInt8.random(in: 0...255, using: &generator)
                nonZero = nonZero || byte != 0
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0F)])
            }
            if nonZero { return String(decoding: text, as: UTF8.self) }
        }
    }
}
