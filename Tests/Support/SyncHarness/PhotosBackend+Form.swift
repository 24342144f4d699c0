import FetchKitTesting
import Foundation

// The body of a write to the photos backend, as PocketBase reads it: JSON, or a multipart form
// whose `@jsonPayload` part holds the JSON fields and whose file parts are named by their field.
extension PhotosBackend {
    /// An uploaded file.
    struct Upload {
        var field: String
        var filename: String
        /// The bytes (empty for a file longer than the recorded body).
        var data: Data
        var size: Int
    }

    /// A write's fields and files.
    struct Form {
        var fields: [String: Any] = [:]
        var files: [Upload] = []

        init(_ request: RecordedRequest) throws {
            let type = request.header("Content-Type") ?? ""
            guard type.hasPrefix("multipart/form-data"), let range = type.range(of: "boundary=") else {
                if !request.body.isEmpty {
                    guard let object = try JSONSerialization.jsonObject(with: request.body) as? [String: Any] else {
                        throw CocoaError(.propertyListReadCorrupt)
                    }
                    fields = object
                }
                return
            }
            let boundary = Data(("--" + type[range.upperBound...].trimmingCharacters(in: .whitespaces)).utf8)
            let body = request.body
            let truncated = request.bodyLength > body.count
            var starts: [Int] = []
            var from = body.startIndex
            while let found = body.range(of: boundary, in: from..<body.endIndex) {
                starts.append(found.upperBound)
                from = found.upperBound
            }
            for (number, start) in starts.enumerated() {
                let end = number + 1 < starts.count ? starts[number + 1] - boundary.count - 2 : body.endIndex
                guard start + 2 <= body.endIndex, body[start..<start + 2] != Data("--".utf8) else { continue }
                guard let split = body.range(of: Data("\r\n\r\n".utf8), in: start..<body.endIndex) else { continue }
                let head = String(decoding: body[start..<split.lowerBound], as: UTF8.self)
                guard let name = Self.parameter("name", in: head) else { continue }
                let last = number + 1 == starts.count
                let content = body[split.upperBound..<max(split.upperBound, end)]
                if let filename = Self.parameter("filename", in: head) {
                    let closing = ("\r\n--" + type[range.upperBound...] + "--\r\n").utf8.count
                    let size = last && truncated ? request.bodyLength - split.upperBound - closing : content.count
                    files.append(
                        Upload(
                            field: name, filename: filename, data: last && truncated ? Data() : Data(content),
                            size: size))
                } else if name == "@jsonPayload" {
                    guard let object = try JSONSerialization.jsonObject(with: content) as? [String: Any] else {
                        throw CocoaError(.propertyListReadCorrupt)
                    }
                    fields.merge(object) { _, new in new }
                } else {
                    fields[name] = String(decoding: content, as: UTF8.self)
                }
            }
        }

        /// A `name="value"` parameter of a part's headers.
        static func parameter(_ name: String, in head: String) -> String? {
            guard let range = head.range(of: " \(name)=\"") ?? head.range(of: ";\(name)=\"") else { return nil }
            let rest = head[range.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
    }
}
