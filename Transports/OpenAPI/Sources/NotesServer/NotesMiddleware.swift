import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Answers a call with the fault its test scripted, if any, before the handler runs.
struct FaultMiddleware: ServerMiddleware {
    let state: NotesState

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let fault = state.takeFault(operationID) else { return try await next(request, body, metadata) }
        guard let status = fault.status else {
            state.count("\(operationID) held")
            state.pauseEvents(after: 0)
            await state.passGate(sent: 0)
            return try await next(request, body, metadata)
        }
        state.count("\(operationID) \(status)")
        var response = HTTPResponse(status: .init(code: status))
        for (name, value) in fault.headers {
            if let name = HTTPField.Name(name) { response.headerFields[name] = value }
        }
        return (response, nil)
    }
}

/// Refuses `createNote` without the accepted bearer token, with a `401`.
struct BearerMiddleware: ServerMiddleware {
    let state: NotesState

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard operationID == "createNote" else { return try await next(request, body, metadata) }
        guard request.headerFields[.authorization] == "Bearer \(state.acceptedToken)" else {
            state.count("createNote 401")
            var response = HTTPResponse(status: .unauthorized)
            response.headerFields[.wwwAuthenticate] = "Bearer"
            return (response, nil)
        }
        return try await next(request, body, metadata)
    }
}
