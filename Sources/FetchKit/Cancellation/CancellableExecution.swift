/// What a `FetchTask` needs from the request it controls.
protocol CancellableExecution: AnyObject, Sendable {
    var id: Int { get }
    var isFinished: Bool { get }
    func cancel()
}
