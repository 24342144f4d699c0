import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bare TCP client for tests that must control the exact bytes on the wire
/// (pipelining, partial writes, malformed requests).
final class RawConnection {
    private let descriptor: Int32

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(port: UInt16) throws {
        #if canImport(Darwin)
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
        var timeout = timeval(tv_sec: Int(Patience.hang.components.seconds), tv_usec: 0)  // Only a hang reaches it.
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw Failure(description: "connect() failed: errno \(errno)")
        }
    }

    deinit {
        close(descriptor)
    }

    func send(_ text: String) {
        send(Data(text.utf8))
    }

    func send(_ data: Data) {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Darwin)
                    let sent = Darwin.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, 0)
                #else
                    let sent = Glibc.send(
                        descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                #endif
                if sent <= 0 { return }
                offset += sent
            }
        }
    }

    /// Reads until the peer closes (or the receive timeout, ``Patience/hang``, passes).
    func readToEnd() -> String {
        var result = Data()
        while let chunk = readSome() { result.append(chunk) }
        return String(decoding: result, as: UTF8.self)
    }

    /// Reads until `text` contains `count` occurrences of `marker`, or the stream ends.
    func read(untilOccurrences count: Int, of marker: String) -> String {
        var result = Data()
        while String(decoding: result, as: UTF8.self).components(separatedBy: marker).count - 1 < count {
            guard let chunk = readSome() else { break }
            result.append(chunk)
        }
        return String(decoding: result, as: UTF8.self)
    }

    private func readSome() -> Data? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Data(buffer[0..<count])
    }
}
