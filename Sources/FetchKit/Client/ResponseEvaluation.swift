import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a ``RequestExecution`` judges what an exchange brought back, by the client's rules: a
/// status outside the acceptable ones, an API-reported failure, then the extraction; every
/// text a server may echo is scrubbed of the request's secrets.
extension FetchClient.Configuration {
    /// Validates `response` to `adapted` and extracts the value through `handoff`. A download's
    /// body is read from the staging file of exchange `downloaded()` (read only when needed).
    func evaluate(
        _ response: TransportResponse, _ adapted: AdaptedRequest, handoff: any ResultHandoff,
        staging: DownloadStaging, downloaded: () -> Int?
    ) -> Outcome {
        let status = response.statusCode
        guard acceptableStatusCodes.contains(status) else {
            var body = response.data
            // A download's body is on disk: read its start for the excerpt, then drop it.
            if let start = staging.takeStart(of: downloaded()) { body = start }
            let excerpt = redactor.scrub(Self.excerpt(of: body), secrets: adapted.secrets)
            return .failure(FetchError(code: .unacceptableStatus, statusCode: status, bodyExcerpt: excerpt))
        }
        // An API-reported failure is looked for in every body, a download's read mapped from its file.
        if let apiFailureDetector,
            var failure = apiFailureDetector(
                staging.body(of: response, downloaded: downloaded()) ?? Data(), response.response)
        {
            failure.message = redactor.scrub(failure.message, secrets: adapted.secrets)
            return .failure(FetchError(code: .apiFailure, statusCode: status, reportedFailure: failure))
        }
        do {
            return .success(try handoff.extract(response))
        } catch {
            return .failure(error.scrubbed(status: status, secrets: adapted.secrets, redactor))
        }
    }

    /// The error for a transport failure other than a cancellation or a timeout, its detail
    /// scrubbed of `adapted`'s secrets.
    /// A ``FetchError`` a transport reports (or a relayed stream's body, already classified) keeps
    /// its code, its texts scrubbed.
    func transportError(_ error: any Error, _ adapted: AdaptedRequest) -> FetchError {
        if let error = error as? FetchError {
            return error.scrubbed(status: error.statusCode, secrets: adapted.secrets, redactor)
        }
        let failure = TransportFailure.classify(error)
        let detail = failure.detail.map { redactor.scrub($0, secrets: adapted.secrets) }
        return FetchError(code: failure.code, detail: detail, urlErrorCode: failure.urlErrorCode)
    }

    /// The start of a body as one line of at most 200 characters, for an error's excerpt.
    static func excerpt(of data: Data) -> String {
        let text = String(decoding: data.prefix(600), as: UTF8.self)
        let collapsed = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
        return collapsed.count > 200 ? String(collapsed.prefix(200)) + "…" : collapsed
    }
}
