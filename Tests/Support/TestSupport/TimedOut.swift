import Foundation
import Locking

/// A test waited longer than its generous bound: something hung.
public struct TimedOut: Error, CustomStringConvertible {
    /// What the test waited for.
    public let what: String

    /// Creates the error.
    ///
    /// - Parameter what: what the test waited for.
    public init(what: String) {
        self.what = what
    }

    /// `timed out waiting for <what>`.
    public var description: String { "timed out waiting for \(what)" }
}
