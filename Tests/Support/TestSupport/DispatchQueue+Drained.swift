public import Dispatch

extension DispatchQueue {
    /// Returns once every block queued on this queue before the call has run: on a serial
    /// queue, the callbacks already handed to it have been delivered.
    public func drained() async {
        await withCheckedContinuation { continuation in
            async { continuation.resume() }
        }
    }
}
