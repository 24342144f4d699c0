import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin wrappers over the POSIX socket calls the stub server uses, hiding the
/// differences between Glibc and Darwin.
enum Socket {
    /// Opens a listening TCP socket on a port of 127.0.0.1.
    ///
    /// - Parameter port: the port to listen on, or 0 for an ephemeral port the system chooses.
    /// - Returns: the descriptor (non-blocking) and the port it listens on.
    static func listenOnLoopback(port: UInt16 = 0) throws(StubServerError) -> (descriptor: Int32, port: UInt16) {
        #if canImport(Darwin)
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw StubServerError(.cannotListen, "socket() failed", errno: errno) }
        var reuse: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))

        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            let place = port == 0 ? "an ephemeral port of 127.0.0.1" : "127.0.0.1:\(port)"
            throw StubServerError(.cannotListen, "bind() to \(place) failed", errno: code)
        }
        guard listen(descriptor, 512) == 0 else {
            let code = errno
            close(descriptor)
            throw StubServerError(.cannotListen, "listen() failed", errno: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(descriptor, $0, &length)
            }
        }
        guard named == 0 else {
            let code = errno
            close(descriptor)
            throw StubServerError(.cannotListen, "getsockname() failed", errno: code)
        }
        setBlocking(descriptor, false)
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }

    /// Accepts one pending connection, or returns `nil` when none is pending.
    static func accept(from listener: Int32) -> Int32? {
        #if canImport(Darwin)
            let descriptor = Darwin.accept(listener, nil, nil)
        #elseif canImport(Musl)
            let descriptor = Musl.accept(listener, nil, nil)
        #else
            let descriptor = Glibc.accept(listener, nil, nil)
        #endif
        guard descriptor >= 0 else { return nil }
        // Darwin hands out accepted sockets that inherit O_NONBLOCK; connections use blocking I/O.
        setBlocking(descriptor, true)
        var one: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return descriptor
    }

    static func setBlocking(_ descriptor: Int32, _ blocking: Bool) {
        let flags = fcntl(descriptor, F_GETFL, 0)
        guard flags >= 0 else { return }
        _ = fcntl(descriptor, F_SETFL, blocking ? flags & ~O_NONBLOCK : flags | O_NONBLOCK)
    }

    /// Sends every byte, never raising SIGPIPE.
    ///
    /// - Returns: `false` when the peer has gone away.
    static func sendAll(_ descriptor: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            guard var pointer = buffer.baseAddress else { return true }
            var remaining = buffer.count
            while remaining > 0 {
                #if canImport(Darwin)
                    let sent = send(descriptor, pointer, remaining, 0)
                #else
                    let sent = send(descriptor, pointer, remaining, Int32(MSG_NOSIGNAL))
                #endif
                if sent < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                if sent == 0 { return false }
                remaining -= sent
                pointer += sent
            }
            return true
        }
    }

    /// Reads what is available (blocking until at least one byte or end of stream).
    ///
    /// - Returns: the bytes read; empty at end of stream or on error.
    static func receive(_ descriptor: Int32, maximum: Int = 65_536) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, maximum, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return [] }
            buffer.removeSubrange(count...)
            return buffer
        }
    }

    /// Waits until `descriptor` is readable or `milliseconds` pass.
    ///
    /// - Returns: whether the peer has closed or failed the connection (a peek reads end of stream).
    static func peerHasClosed(_ descriptor: Int32, waitingUpTo milliseconds: Int32) -> (closed: Bool, readable: Bool) {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, milliseconds)
        guard ready > 0 else { return (false, false) }
        var byte: UInt8 = 0
        let peeked = recv(descriptor, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        if peeked == 0 { return (true, true) }
        if peeked < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { return (true, true) }
        return (false, true)
    }

    /// Waits until one of two descriptors is readable.
    ///
    /// - Returns: the readiness of each (`first`, `second`).
    static func waitReadable(_ first: Int32, _ second: Int32) -> (first: Bool, second: Bool) {
        var entries = [
            pollfd(fd: first, events: Int16(POLLIN), revents: 0),
            pollfd(fd: second, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&entries, 2, 1_000)
        guard ready > 0 else { return (false, false) }
        return (entries[0].revents != 0, entries[1].revents != 0)
    }

    static func makePipe() throws(StubServerError) -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw StubServerError(.cannotListen, "pipe() failed", errno: errno) }
        setBlocking(descriptors[0], false)
        setBlocking(descriptors[1], false)
        return (descriptors[0], descriptors[1])
    }

    static func write(byteTo descriptor: Int32) {
        var byte: UInt8 = 1
        #if canImport(Darwin)
            _ = Darwin.write(descriptor, &byte, 1)
        #elseif canImport(Musl)
            _ = Musl.write(descriptor, &byte, 1)
        #else
            _ = Glibc.write(descriptor, &byte, 1)
        #endif
    }

    static func shutdownBoth(_ descriptor: Int32) {
        #if canImport(Darwin)
            _ = shutdown(descriptor, SHUT_RDWR)
        #else
            _ = shutdown(descriptor, Int32(SHUT_RDWR))
        #endif
    }

    /// Makes the next `close` of `descriptor` reset the connection (`SO_LINGER` of zero)
    /// instead of closing it in order.
    static func resetOnClose(_ descriptor: Int32) {
        var value = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size))
    }

    static func close(_ descriptor: Int32) {
        #if canImport(Darwin)
            _ = Darwin.close(descriptor)
        #elseif canImport(Musl)
            _ = Musl.close(descriptor)
        #else
            _ = Glibc.close(descriptor)
        #endif
    }
}
