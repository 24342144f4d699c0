import FetchKitTesting
import Foundation
import TestSupport
import Testing

/// Tests that speak raw bytes to the server: keep-alive, pipelining, partial reads and malformed input.
@Suite("Stub server on the wire")
struct StubServerWireTests {
    let server = StubServer()

    init() throws {
        server.route("GET", "/a", respond: .text("alpha"))
        server.route("GET", "/b", respond: .text("beta"))
        server.route("POST", "/echo") { request in .text(request.bodyText ?? "") }
        try server.start()
    }

    @Test func keepsTheConnectionAliveAcrossRequests() throws {
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = connection.read(untilOccurrences: 1, of: "alpha")
        #expect(first.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(first.contains("Connection: keep-alive"))
        connection.send("GET /b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let second = connection.readToEnd()
        #expect(second.contains("beta"))
        #expect(second.contains("Connection: close"))
        let requests = server.receivedRequests
        #expect(requests.count == 2)
        #expect(requests[0].connectionID == requests[1].connectionID)
    }

    @Test func answersPipelinedRequestsInOrder() throws {
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
                + "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let all = connection.readToEnd()
        let hello = try #require(all.range(of: "hello"))
        let alpha = try #require(all.range(of: "alpha"))
        let beta = try #require(all.range(of: "beta"))
        #expect(hello.lowerBound < alpha.lowerBound)
        #expect(alpha.lowerBound < beta.lowerBound)
        #expect(server.receivedRequests.map(\.path) == ["/echo", "/a", "/b"])
    }

    @Test func assemblesARequestThatArrivesInSmallPieces() throws {
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        let request = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\nConnection: close\r\n\r\nhello world"
        for character in request {
            connection.send(String(character))
        }
        #expect(connection.readToEnd().hasSuffix("hello world"))
    }

    @Test func decodesAChunkedRequestBody() throws {
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nTrailer: t\r\n\r\n")
        #expect(connection.readToEnd().hasSuffix("hello world"))
    }

    @Test func answersContinueWhenTheClientExpectsIt() throws {
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 3\r\nConnection: close\r\n\r\n")
        #expect(connection.read(untilOccurrences: 1, of: "100 Continue\r\n\r\n").contains("HTTP/1.1 100 Continue"))
        connection.send("abc")
        #expect(connection.readToEnd().hasSuffix("abc"))
    }

    @Test(
        "Malformed requests get an error status and never stop the server",
        arguments: [
            ("GARBAGE\r\n\r\n", "400"),
            ("GET /a HTTP/1.1 extra\r\n\r\n", "400"),
            ("GET /a HTTP/2.0\r\n\r\n", "505"),
            ("G(T /a HTTP/1.1\r\n\r\n", "400"),
            ("GET /a HTTP/1.1\r\nNoColonHere\r\n\r\n", "400"),
            ("POST /echo HTTP/1.1\r\nContent-Length: -1\r\n\r\n", "400"),
            ("POST /echo HTTP/1.1\r\nContent-Length: 3, 4\r\n\r\n", "400"),
            ("POST /echo HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n", "400"),
            ("POST /echo HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", "501"),
            ("POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n", "400"),
            ("GET /a HTTP/1.1\r\nX: {70000 bytes}\r\n\r\n", "431"),
        ])
    func malformedRequestGetsAnErrorStatus(request: String, status: String) async throws {
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        connection.send(request.replacingOccurrences(of: "{70000 bytes}", with: String(repeating: "y", count: 70_000)))
        let reply = connection.readToEnd()
        #expect(reply.hasPrefix("HTTP/1.1 \(status) "))
        #expect(try await HTTP.get(server.url("/a")).get().text == "alpha")
    }

    @Test func survivesBinaryNoiseAndAbruptDisconnects() async throws {
        defer { server.stop() }
        for seed in 0..<20 {
            let connection = try RawConnection(port: server.port)
            var generator = SeededGenerator(seed: UInt64(seed))
            let noise = Data((0..<(seed * 37 + 1)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            connection.send(noise)
        }
        #expect(try await HTTP.get(server.url("/a")).get().text == "alpha")
    }
}
