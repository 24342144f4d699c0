import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A fast loopback HTTP/1.1 server on SwiftNIO, so the server's own cost does not hide the
/// clients' differences: `GET /movie` answers at once, `/slow/*` after `latency`, and the
/// first answer on each new connection pays `newConnectionDelay` more (a handshake stand-in).
final class NIOReferenceServer: Sendable {
    let port: Int
    private let channel: any Channel
    private let connections: NIOLockedValueBox<Int>

    init(latency: TimeAmount = .milliseconds(20), newConnectionDelay: TimeAmount = .zero, body: String) throws {
        let connections = NIOLockedValueBox(0)
        self.connections = connections
        let bodyBytes = ByteBuffer(string: body)
        channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                connections.withLockedValue { $0 += 1 }
                return channel.pipeline.configureHTTPServerPipeline(withErrorHandling: true).flatMap {
                    channel.pipeline.addHandler(
                        Responder(body: bodyBytes, latency: latency, firstDelay: newConnectionDelay))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Connections accepted since the last reset.
    var connectionsAccepted: Int { connections.withLockedValue { $0 } }
    func resetConnections() { connections.withLockedValue { $0 = 0 } }

    func stop() { try? channel.close().wait() }

    private final class Responder: ChannelInboundHandler, @unchecked Sendable {
        // @unchecked Sendable: used only on its channel's event loop (NIO's handler contract).
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let body: ByteBuffer
        private let latency: TimeAmount
        private var firstDelay: TimeAmount
        private var keepAlive = true
        private var path = ""

        init(body: ByteBuffer, latency: TimeAmount, firstDelay: TimeAmount) {
            self.body = body
            self.latency = latency
            self.firstDelay = firstDelay
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                keepAlive = head.isKeepAlive
                path = head.uri
            case .body:
                break
            case .end:
                var delay = path.hasPrefix("/slow/") ? latency : .zero
                delay = delay + firstDelay
                firstDelay = .zero
                let keepAlive = self.keepAlive
                let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                if delay > .zero {
                    context.eventLoop.scheduleTask(in: delay) {
                        let (handler, context) = loopBound.value
                        handler.respond(context, keepAlive: keepAlive)
                    }
                } else {
                    respond(context, keepAlive: keepAlive)
                }
            }
        }

        private func respond(_ context: ChannelHandlerContext, keepAlive: Bool) {
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/json")
            headers.add(name: "Content-Length", value: String(body.readableBytes))
            headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil
            )
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            if !keepAlive {
                let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
                done.whenComplete { _ in loopBound.value.close(promise: nil) }
            }
        }
    }
}
