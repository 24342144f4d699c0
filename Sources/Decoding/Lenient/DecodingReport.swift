import Foundation
import Locking

/// What lenient decoding skipped, defaulted or converted, each with its path and reason.
///
/// Lenient helpers such as ``LossyArray`` and ``DefaultValue`` keep decoding going when the
/// data is imperfect; the report makes sure nothing they did goes unnoticed. Get it from
/// ``PathDecoder/decodeWithReport(_:from:)``:
///
/// ```swift
/// let (page, report) = try PathDecoder().decodeWithReport(BookPage.self, from: data)
/// for entry in report.entries { print(entry) }  // items[4]: skipped element: expected String, found null
/// ```
public struct DecodingReport: Sendable, Hashable, CustomStringConvertible {
    /// What a lenient helper did with one value.
    public enum Action: String, Sendable, Hashable {
        /// An array element that could not be decoded was left out.
        case skippedElement = "skipped element"
        /// A missing or null value was replaced by a default.
        case usedDefault = "used default"
        /// A scalar that arrived as another type (a number as a string, or the reverse) was converted.
        case convertedType = "converted type"
    }

    /// One thing lenient decoding did.
    public struct Entry: Sendable, Hashable, CustomStringConvertible {
        /// The readable path of the value, such as `photos.photo[2].latitude`.
        public var path: String
        /// What was done.
        public var action: Action
        /// Why, such as `expected Double, found null` or `key is missing`.
        public var reason: String

        /// Creates an entry.
        ///
        /// - Parameters:
        ///   - path: the readable path of the value.
        ///   - action: what was done.
        ///   - reason: why.
        public init(path: String, action: Action, reason: String) {
            self.path = path
            self.action = action
            self.reason = reason
        }

        /// `path: action: reason`, on one line.
        public var description: String {
            path.isEmpty ? "\(action.rawValue): \(reason)" : "\(path): \(action.rawValue): \(reason)"
        }
    }

    /// Everything that was skipped, defaulted or converted, in decoding order.
    public var entries: [Entry]

    /// Creates a report.
    ///
    /// - Parameter entries: the entries, in decoding order.
    init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// Whether decoding was exact: nothing skipped, defaulted or converted.
    public var isEmpty: Bool { entries.isEmpty }

    /// The entries with one action, such as all skipped elements.
    ///
    /// - Parameter action: the action to select.
    /// - Returns: the matching entries, in decoding order.
    public func entries(_ action: Action) -> [Entry] {
        entries.filter { $0.action == action }
    }

    /// One entry per line.
    public var description: String {
        entries.isEmpty ? "nothing skipped or defaulted" : entries.map(\.description).joined(separator: "\n")
    }

    /// Records an entry in the report of the decoding running on this task, if there is one.
    static func record(_ codingPath: [any CodingKey], _ action: Action, _ reason: String) {
        ReportCollector.current?.append(
            Entry(path: CodingPathFormatter.string(codingPath), action: action, reason: reason))
    }
}

/// Collects report entries during one ``PathDecoder`` call.
final class ReportCollector: Sendable {
    @TaskLocal static var current: ReportCollector?

    private let entries = Locked([DecodingReport.Entry]())

    func append(_ entry: DecodingReport.Entry) {
        entries.withLock { $0.append(entry) }
    }

    /// Appends the entries `other` collected, in order.
    func append(contentsOf other: ReportCollector) {
        let collected = other.entries.current
        entries.withLock { $0.append(contentsOf: collected) }
    }

    var report: DecodingReport {
        DecodingReport(entries: entries.current)
    }
}
