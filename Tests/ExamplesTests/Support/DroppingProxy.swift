import Foundation
import Locking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP proxy on loopback in front of a server, for the interop tests: it forwards each
/// connection both ways, and can lose the answer to the next request of one method. That request
/// reaches the server whole; the client's connection is then closed before the answer, as a
/// network that drops a response would. A trap (``trap(_:then:)``) does something (kills the
/// client) at a chosen request, once the server has answered it.
final class DroppingProxy: Sendable {
    /// What the proxy does at the next request whose first line matches, once.
    private struct Trap: Sendable {
        let matches: @Sendable (String) -> Bool
        let action: @Sendable () -> Void
    }

    private struct State: Sendable {
        var dropNext: String?
        var dropped = 0
        var closed = false
        var trap: Trap?
        var sprung = 0
    }

    /// The proxy's port on 127.0.0.1.
    let port: Int
    private let listener: Int32
    private let target: Int
    /// The method whose next answer is lost, how many answers were lost, and the trap.
    private let state = Locked(State())

    /// A proxy to `target` (a port on 127.0.0.1), accepting at once.
    init(to target: Int) throws {
        self.target = target
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw PocketBaseFailure(description: "the proxy cannot open a socket") }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw PocketBaseFailure(description: "the proxy cannot listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { return }
                Thread { self.relay(client) }.start()
            }
        }.start()
    }

    /// The proxy's URL.
    var url: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    /// Loses the answer to the next request with this method (`PATCH`).
    func dropNextAnswer(to method: String) { state.withLock { $0.dropNext = method } }

    /// How many answers were lost.
    var dropped: Int { state.withLock { $0.dropped } }

    /// At the next request whose first line (`GET /api/… HTTP/1.1`, the query as sent) matches,
    /// lets it reach the server, then, when the answer arrives, runs `action` and closes the
    /// connection (the answer is lost).
    func trap(_ matches: @escaping @Sendable (String) -> Bool, then action: @escaping @Sendable () -> Void) {
        state.withLock { $0.trap = Trap(matches: matches, action: action) }
    }

    /// Disarms a trap that was not sprung.
    func disarm() { state.withLock { $0.trap = nil } }

    /// How many traps were sprung.
    var sprung: Int { state.withLock { $0.sprung } }

    /// Stops accepting connections.
    func stop() {
        state.withLock { $0.closed = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Relays one client connection to the target until either side closes.
    private func relay(_ client: Int32) {
        #if canImport(Glibc)
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let server = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = Self.loopback(port: UInt16(target))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(client)
            close(server)
            return
        }
        // Set when a request whose answer is to be lost went to the server, with what to do then.
        let losing = Locked<(Bool, (@Sendable () -> Void)?)>((false, nil))
        let ended = DispatchSemaphore(value: 0)
        Thread {
            self.pump(from: client, to: server) { bytes in
                let line = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
                let sprung: Trap? = self.state.withLock { state in
                    if let trap = state.trap, trap.matches(line) {
                        state.trap = nil
                        state.sprung += 1
                        return trap
                    }
                    return nil
                }
                if let sprung {
                    losing.withLock { $0 = (true, sprung.action) }
                    return true
                }
                self.state.withLock { state in
                    guard let method = state.dropNext, bytes.starts(with: Array("\(method) ".utf8)) else { return }
                    state.dropNext = nil
                    losing.withLock { $0 = (true, nil) }
                }
                return true
            }
            ended.signal()
        }.start()
        pump(from: server, to: client) { _ in
            let (lose, action) = losing.withLock { $0 }
            guard lose else { return true }
            action?()
            self.state.withLock { $0.dropped += 1 }
            return false
        }
        shutdown(client, Int32(SHUT_RDWR))
        shutdown(server, Int32(SHUT_RDWR))
        ended.wait()
        close(client)
        close(server)
    }

    /// Copies bytes from one socket to the other while `forward` says so.
    private func pump(from source: Int32, to destination: Int32, forward: ([UInt8]) -> Bool) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                shutdown(destination, Int32(SHUT_WR))
                return
            }
            let chunk = Array(buffer[0..<count])
            guard forward(chunk) else { return }
            #if canImport(Glibc)
                let flags = Int32(MSG_NOSIGNAL)
            #else
                let flags: Int32 = 0
            #endif
            var sent = 0
            while sent < count {
                let written = chunk.withUnsafeBytes { raw in
                    raw.baseAddress.map { send(destination, $0 + sent, count - sent, flags) } ?? -1
                }
                guard written > 0 else { return }
                sent += written
            }
        }
    }
}
