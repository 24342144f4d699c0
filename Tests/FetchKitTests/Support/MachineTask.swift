@testable import FetchKit

/// A transport task the state machine tests hand to ``RequestStateMachine``: it only has a number.
final class MachineTask: TransportTask {
    let number: Int

    init(_ number: Int) {
        self.number = number
    }

    func cancel() {}
}
