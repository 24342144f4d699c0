/// How failed items combine with the others into one ``RefreshOutcome``.
///
/// Whatever the rule, an item that changed something makes the outcome
/// ``RefreshOutcome/newData``: data did change, and the caller must hear about it. The rules
/// differ only when no item changed anything.
///
/// | items (none changed) | ``strict`` | ``tolerant`` |
/// |---|---|---|
/// | all unchanged, or no items | `noData` | `noData` |
/// | some failed, some unchanged | `failed` | `noData` |
/// | all failed | `failed` | `failed` |
///
/// A fan-out that is cancelled counts its unfinished items as failed.
public enum FailureRule: Sendable, Hashable {
    /// Any failure without a change makes the outcome ``RefreshOutcome/failed``: the refresh
    /// cannot claim "nothing changed" for an item it could not check. The default.
    case strict
    /// Failures make the outcome ``RefreshOutcome/failed`` only when every item failed;
    /// otherwise the items that ran decide.
    case tolerant

    /// The outcome of a refresh whose items came to `outcomes`.
    ///
    /// - Parameter outcomes: each item's outcome, in any order.
    /// - Returns: ``RefreshOutcome/newData`` if any item changed; otherwise as the rule says.
    public func outcome(of outcomes: some Sequence<ItemOutcome>) -> RefreshOutcome {
        var tally = OutcomeTally()
        for item in outcomes { tally.record(item) }
        return tally.outcome(under: self)
    }
}

/// Running counts of item outcomes, so an aggregate needs no array of them.
struct OutcomeTally: Sendable, Hashable {
    var changed = 0
    var unchanged = 0
    var failed = 0

    mutating func record(_ outcome: ItemOutcome) {
        switch outcome {
        case .changed: changed += 1
        case .unchanged: unchanged += 1
        case .failed: failed += 1
        }
    }

    func outcome(under rule: FailureRule) -> RefreshOutcome {
        if changed > 0 { return .newData }
        if failed == 0 { return .noData }
        switch rule {
        case .strict: return .failed
        case .tolerant: return unchanged > 0 ? .noData : .failed
        }
    }
}
