import Dispatch
import Locking

/// One Dispatch timer for every pending deadline of the process: request timeouts and the
/// waits before retries on real time.
///
/// A timer per request costs a Dispatch source each, created, registered with Dispatch's
/// timer thread and fired (even when it is no longer wanted) every time. Here a request
/// adds an entry to a heap and, when it ends first, removes it by its number; the one timer
/// is set again only when a new deadline is earlier than the one it waits for. Timeouts
/// are mostly the same length, so new deadlines come later than the armed one and a request
/// that ends in time never touches the timer.
final class DeadlineTimer: Sendable {
    /// The timer that serves the process.
    static let shared = DeadlineTimer()

    private struct Entry {
        let deadline: UInt64
        let id: UInt64
    }

    private struct State {
        var heap: [Entry] = []
        /// The actions still wanted, by entry number; an entry of the heap whose number is
        /// missing here was cancelled, and is dropped when it comes up (or at a compaction).
        var actions: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
        /// The deadline the timer is set for, `nil` when it is idle.
        var armed: UInt64?
    }

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "FetchKit.DeadlineTimer", qos: .userInitiated)
    /// The Dispatch timer. `nonisolated(unsafe)`: its handler is set once, before it is
    /// activated, and afterwards it is only set again (`schedule`) while `state`'s lock is held.
    nonisolated(unsafe) private let timer: any DispatchSourceTimer

    /// Creates a timer; the library uses ``shared``, tests their own.
    init() {
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.activate()
    }

    deinit {
        timer.cancel()
    }

    /// Runs `action` once, on a global queue, when `delay` has passed; returns the number
    /// that cancels it.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        let deadline = Self.deadline(after: delay)
        return state.withLock { state -> UInt64 in
            state.nextID += 1
            let id = state.nextID
            state.actions[id] = action
            Self.push(Entry(deadline: deadline, id: id), into: &state.heap)
            if state.armed.map({ deadline < $0 }) ?? true {
                // Set under the lock, so two threads cannot leave the timer at the later of their deadlines.
                state.armed = deadline
                set(deadline)
            }
            return id
        }
    }

    /// The uptime in nanoseconds when `delay` will have passed (a century at most).
    static func deadline(after delay: Duration) -> UInt64 {
        let (seconds, attoseconds) = delay.components
        guard seconds >= 0 else { return DispatchTime.now().uptimeNanoseconds }
        let nanoseconds =
            UInt64(min(seconds, 3_155_760_000)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        return DispatchTime.now().uptimeNanoseconds + nanoseconds
    }

    /// Keeps the action numbered `id` from running, if it has not run yet.
    func cancel(_ id: UInt64) {
        state.withLock { state in
            guard state.actions.removeValue(forKey: id) != nil else { return }
            // Cancelled entries stay in the heap until they come up; keep them from piling up.
            if state.heap.count > 64 && state.heap.count > 2 * state.actions.count {
                state.heap = state.heap.filter { state.actions[$0.id] != nil }
                Self.heapify(&state.heap)
            }
        }
    }

    /// The number of actions waiting (for tests).
    var pendingCount: Int { state.withLock { $0.actions.count } }

    /// The number of entries in the heap, cancelled ones included (for tests).
    var storedCount: Int { state.withLock { $0.heap.count } }

    private func set(_ deadline: UInt64) {
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .milliseconds(1))
    }

    /// Runs the actions that are due, then sets the timer for the next deadline.
    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = state.withLock { state -> [@Sendable () -> Void] in
            var due: [@Sendable () -> Void] = []
            while let first = state.heap.first, first.deadline <= now || state.actions[first.id] == nil {
                Self.popFirst(&state.heap)
                if let action = state.actions.removeValue(forKey: first.id) { due.append(action) }
            }
            state.armed = state.heap.first?.deadline
            if let next = state.armed { set(next) }
            return due
        }
        // Each on a global queue: an action can reach user code (an observer told of a
        // timeout or a retry), which must not hold up the deadlines behind it.
        for action in due { DispatchQueue.global(qos: .userInitiated).async(execute: action) }
    }

    // MARK: A binary min-heap on the deadline

    private static func push(_ entry: Entry, into heap: inout [Entry]) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func popFirst(_ heap: inout [Entry]) {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0, in: &heap)
    }

    private static func siftDown(_ start: Int, in heap: inout [Entry]) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count && heap[left + 1].deadline < heap[left].deadline { smallest = left + 1 }
            guard heap[smallest].deadline < heap[parent].deadline else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }

    private static func heapify(_ heap: inout [Entry]) {
        guard heap.count > 1 else { return }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index, in: &heap) }
    }
}
