/// An error from starting a ``StubServer``.
///
/// The server can fail to start only when the system refuses it a loopback socket
/// (for example when the process has run out of file descriptors). The ``description``
/// says which call failed and the system's error number.
public struct StubServerError: Error, Sendable, CustomStringConvertible {
    /// What failed, in a form you can compare (`error.code == .cannotListen`).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The server could not open, bind or listen on a socket of 127.0.0.1.
        public static let cannotListen = Code("cannotListen")

        /// The name of the code, such as `cannotListen`.
        public var description: String { name }
    }

    /// What failed.
    public let code: Code
    /// The system's `errno` at the time of the failure, or 0 when none applies.
    public let errno: Int32
    private let detail: String

    init(_ code: Code, _ detail: String, errno: Int32) {
        self.code = code
        self.detail = detail
        self.errno = errno
    }

    /// A sentence that says which system call failed and why.
    public var description: String {
        "The stub server could not start: \(detail) (errno \(errno)). Check the process's open file limit."
    }
}
