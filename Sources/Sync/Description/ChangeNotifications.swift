public import FetchKit
public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The server's notifications that something changed, which a started collection or group
/// follows (``SyncedCollection/start(following:)``, ``SyncGroup/start(following:)``): each
/// notification starts a pull, and so does each connection to them once it is open.
///
/// ```swift
/// let notes = try SyncedCollection(.pocketBase("notes", at: server, version: \Note.updated), store: store, client: client)
/// await notes.start(following: .pocketBase(at: server, collections: ["notes"]))
/// ```
///
/// A notification is a hint, never the truth: its content is not applied, the pull reads the
/// records. So a notification that is late, out of order or lost changes nothing that matters:
/// the pull it starts (or the next one) finds the change. Notifications that arrive while a run
/// is in progress start one pull after it, however many arrived. After a connection breaks, the
/// collection connects again (the server's `retry`, or ``reconnection``'s delay, doubled for
/// each attempt that fails in a row) and pulls once connected: what changed while no connection
/// was open is found then.
///
/// The connection is one fetch through the collection's `FetchClient` (a group's: its first
/// collection's, parents first): its adapters and authenticator apply. Following stops with
/// ``SyncedCollection/stop()``, which closes the connection, or for good when the server answers
/// in a way another attempt cannot change (a refused or unknown address, an answer that is not
/// an event stream); ``SyncStatus/followingError`` then says why, and the collection's pushes
/// and ``SyncedCollection/sync()`` go on. Starting the collection again follows again. A pull a
/// notification starts sends only the writes whose backoff has ended (a write the server asked
/// to wait with `Retry-After` waits, however busy the collection).
public struct ChangeNotifications: Sendable {
    /// When and how often the connection is made again after it ends (the default waits one
    /// second, doubled for each attempt that fails in a row, up to a minute).
    public var reconnection: EventSource.Reconnection
    /// The event stream's request.
    let endpoint: any Endpoint
    /// Whether a connection's opening starts a pull (a protocol that subscribes first pulls once
    /// subscribed instead).
    let pullsWhenOpened: Bool
    /// Reads one event for the named collection (or group): whether it announces a change (a
    /// pull), after doing what the protocol asks of the client (a subscription).
    let reading: @Sendable (ServerSentEvent, FetchClient, String) async throws(SyncError) -> Bool

    /// Notifications as server-sent events (`text/event-stream`) at `endpoint`.
    ///
    /// The stream is read as FetchKit's `EventSource` (with `Last-Event-ID` after the first event that
    /// set an ID); every event is a change unless `announcesChange` says otherwise.
    ///
    /// ```swift
    /// await notes.start(following: .serverSentEvents(NotesAPI.events) { event in event.event == "notes" })
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: the event stream's request. Its `timeout` is how long the stream may stay
    ///     quiet before the connection is taken for broken and made again: above the server's
    ///     own heartbeat or idle limit.
    ///   - reconnection: when to connect again.
    ///   - announcesChange: whether an event says something changed (a pull follows); by
    ///     default every event does.
    /// - Returns: the notifications.
    public static func serverSentEvents(
        _ endpoint: some Endpoint,
        reconnection: EventSource.Reconnection = EventSource.Reconnection(delay: .seconds(1)),
        announcesChange: @escaping @Sendable (ServerSentEvent) -> Bool = { _ in true }
    ) -> ChangeNotifications {
        ChangeNotifications(
            reconnection: reconnection, endpoint: endpoint, pullsWhenOpened: true,
            reading: { event, _, _ in announcesChange(event) })
    }

    /// The realtime API of a [PocketBase](https://pocketbase.io) server, subscribed to every
    /// record of `collections`.
    ///
    /// Each connection to `/api/realtime` opens with a `PB_CONNECT` event naming the connection;
    /// the subscription (`POST /api/realtime` with the client's authorization, so the server
    /// sends only the records the user may list) follows at once, then a pull, then one pull
    /// for each record event. PocketBase replays nothing after a break and gives each connection
    /// a new name, so each connection subscribes and pulls again; it closes a connection that
    /// stayed quiet for five minutes, which the request's timeout (five and a half minutes)
    /// outlasts.
    ///
    /// - Parameters:
    ///   - server: the server's root URL, such as `http://127.0.0.1:8090`.
    ///   - collections: the PocketBase collections whose record changes start a pull (a
    ///     group's members, or the one collection).
    ///   - reconnection: when to connect again.
    /// - Returns: the notifications.
    public static func pocketBase(
        at server: URL, collections: [String],
        reconnection: EventSource.Reconnection = EventSource.Reconnection(delay: .seconds(1))
    ) -> ChangeNotifications {
        let realtime = PocketBaseRealtime(server: server, topics: collections.map { "\($0)/*" })
        return ChangeNotifications(
            reconnection: reconnection, endpoint: realtime.connection, pullsWhenOpened: false,
            reading: { (event, client, collection) throws(SyncError) -> Bool in
                try await realtime.read(event, client: client, collection: collection)
            })
    }
}

/// PocketBase's realtime protocol: a connection, then a subscription naming it.
struct PocketBaseRealtime: Sendable {
    var server: URL
    var topics: [String]

    /// The event stream: PocketBase closes one quiet for five minutes; the wait for the next
    /// event outlasts that.
    var connection: RealtimeRequest { RealtimeRequest(baseURL: server, timeout: .seconds(330)) }

    /// Subscribes when the connection opens (and says a pull follows); any other event is a
    /// change to a subscribed collection.
    func read(_ event: ServerSentEvent, client: FetchClient, collection: String) async throws(SyncError) -> Bool {
        guard event.event == "PB_CONNECT" else { return topics.contains(event.event) }
        guard let connect = try? JSONDecoder().decode(Connect.self, from: Data(event.data.utf8)),
            !connect.clientId.isEmpty
        else {
            throw SyncError(
                .misuse, collection: collection,
                "The realtime connection at \(server.absoluteString) opened without PocketBase's client id (its "
                    + "PB_CONNECT event carried \(event.data.prefix(80).debugDescription)): is the server PocketBase?")
        }
        var subscribe = connection
        subscribe.method = .post
        subscribe.timeout = nil
        subscribe.body = .json(Subscription(clientId: connect.clientId, subscriptions: topics))
        do {
            _ = try await client.fetch(subscribe, extracting: .data)
        } catch  where [400, 404].contains(error.statusCode ?? 0) {
            // "Missing or invalid client id": the connection PB_CONNECT named is gone (the server
            // restarted between the two); a new connection names a new client.
            throw SyncError(
                .requestFailed, collection: collection,
                "PocketBase no longer knows the realtime connection it just named (HTTP \(error.statusCode ?? 0) to the "
                    + "subscription); connecting again.")
        } catch {
            throw SyncError(
                .requestFailed, collection: collection,
                "The subscription to PocketBase's realtime changes of \(topics.joined(separator: ", ")) failed.",
                fetchError: error)
        }
        return true
    }

    private struct Connect: Decodable {
        var clientId: String
    }

    private struct Subscription: Encodable {
        var clientId: String
        var subscriptions: [String]
    }
}

/// `/api/realtime` below a PocketBase server's root.
struct RealtimeRequest: Endpoint {
    var baseURL: URL
    var path: String { "/api/realtime" }
    var method: HTTPMethod = .get
    var body: RequestBody?
    var timeout: Duration?
    var cachePolicy: CachePolicy { .bypass }
}
