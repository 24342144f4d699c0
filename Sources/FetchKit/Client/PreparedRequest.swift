public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A request exactly as a client would send it (base URL, adapters and token applied),
/// whose `description` is a `curl` command that reproduces it, secrets redacted.
///
/// ```swift
/// let prepared = try client.prepare(TMDB.search("Fast & Furious"))
/// print(prepared)
/// // curl 'https://api.themoviedb.org/3/search/movie?query=Fast%20%26%20Furious&api_key=REDACTED'
/// ```
///
/// Paste the command into a bug report or a log: API keys, tokens, cookies and secret form
/// fields read `REDACTED`. ``urlRequest`` is the real request, secrets included; it is
/// left out of `dump()` and `String(reflecting:)`.
public struct PreparedRequest: Sendable, CustomStringConvertible, CustomReflectable {
    /// The request, with every secret in place: send it, never print it.
    public let urlRequest: URLRequest
    /// The file the body streams from, for a file or multipart upload.
    public let bodyFile: URL?
    /// The multipart form of the body, which the client writes when it sends the request.
    let form: MultipartFormData?
    private let redactor: Redactor

    init(urlRequest: URLRequest, bodyFile: URL?, form: MultipartFormData?, redactor: Redactor) {
        self.urlRequest = urlRequest
        self.bodyFile = bodyFile
        self.form = form
        self.redactor = redactor
    }

    /// The `curl` command line that sends this request, with secrets redacted.
    public var description: String {
        guard let form else { return redactor.curlCommand(for: urlRequest, bodyFile: bodyFile) }
        // curl writes the form itself (`-F`), with its own boundary.
        var request = urlRequest
        request.setValue(nil, forHTTPHeaderField: "Content-Type")
        request.httpBody = nil
        return redactor.curlCommand(for: request) + form.curlArguments(redactor)
    }

    /// A mirror that shows only the redacted command.
    public var customMirror: Mirror {
        Mirror(self, children: ["curl": description], displayStyle: .struct)
    }
}

extension Redactor {
    /// A `curl` command line that reproduces `request`, with secret query values, headers
    /// and form fields replaced by ``placeholder``; each argument is single-quoted for a
    /// POSIX shell.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - bodyFile: the file the body is streamed from, if any (shown as `--data-binary @file`).
    /// - Returns: the command, such as `curl -X POST 'https://…' -H 'Content-Type: application/json' --data-binary '{"a":1}'`.
    public func curlCommand(for request: URLRequest, bodyFile: URL? = nil) -> String {
        var parts = ["curl"]
        let method = (request.httpMethod ?? "GET").uppercased()
        if method == "HEAD" {
            parts.append("--head")
        } else if method != "GET" {
            parts.append("-X \(method)")
        }
        parts.append(Self.quoted(request.url.map(describe) ?? "<no URL>"))
        let headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }
        for (name, value) in headers where name.lowercased() != "content-length" {
            parts.append("-H " + Self.quoted("\(name): \(isSecret(name) ? Self.placeholder : value)"))
        }
        if let bodyFile {
            parts.append("--data-binary " + Self.quoted("@" + bodyFile.path))
        } else if let body = request.httpBody, !body.isEmpty {
            parts.append(
                "--data-binary " + bodyArgument(body, contentType: request.value(forHTTPHeaderField: "Content-Type")))
        } else if request.httpBodyStream != nil {
            parts.append("--data-binary '@<stream>'")
        }
        return parts.joined(separator: " ")
    }

    /// The body as a quoted argument: text with secret form and JSON fields redacted, or
    /// a note of its size when it is binary or long.
    private func bodyArgument(_ body: Data, contentType: String?) -> String {
        guard body.count <= 64 * 1024, let text = String(data: body, encoding: .utf8),
            !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" })
        else {
            return Self.quoted("@<\(body.count) bytes of binary data>")
        }
        return Self.quoted(redact(body: text, contentType: contentType))
    }

    /// `text` in single quotes, each `'` written as `'\''`.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

extension FetchClient {
    /// The request this client would send for `endpoint`: the client's base URL, adapters and
    /// current token applied (no token is fetched), ready to print as a `curl` command.
    ///
    /// - Parameter endpoint: the endpoint.
    /// - Returns: the prepared request; its `description` is the redacted `curl` command.
    /// - Throws: ``FetchError`` when the request cannot be built or an adapter fails.
    public func prepare(_ endpoint: some Endpoint) throws(FetchError) -> PreparedRequest {
        var form: MultipartFormData?
        if case .multipart(let multipart)? = endpoint.body?.source { form = multipart }
        let built = try endpoint.builtRequest(
            defaultTimeout: endpoint.timeout ?? configuration.timeout, base: configuration.baseURL,
            handling: .describe)
        var request = built.request
        for adapter in configuration.adapters {
            request = try adapter.adapt(request)
        }
        if let authenticator = configuration.authenticator, let token = authenticator.token {
            request = authenticator.apply(token, to: request)
        }
        return PreparedRequest(
            urlRequest: request, bodyFile: built.bodyFile?.url, form: form, redactor: configuration.redactor)
    }
}

extension MultipartFormData {
    /// The form as curl's `-F` arguments, each starting with a space.
    func curlArguments(_ redactor: Redactor) -> String {
        parts.map { part -> String in
            switch part {
            case .field(let name, let value):
                return " -F " + Redactor.quoted("\(name)=\(redactor.isSecret(name) ? Redactor.placeholder : value)")
            case .data(let name, let data, let filename, let contentType):
                let what = "@<\(data.count) bytes>" + (filename.map { ";filename=\($0)" } ?? "")
                return " -F " + Redactor.quoted("\(name)=\(what);type=\(contentType)")
            case .file(let name, let url, let filename, let contentType):
                return " -F " + Redactor.quoted("\(name)=@\(url.path);filename=\(filename);type=\(contentType)")
            }
        }
        .joined()
    }
}
