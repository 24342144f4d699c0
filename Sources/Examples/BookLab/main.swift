import ExampleSupport
import Foundation

// Interim book lab (issue 6 replaces it with the full program over FetchKit and Persistence):
// searches the offline catalogue that the full program's built-in server will serve.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.first == "search", arguments.count > 1 else {
    FileHandle.standardError.write(Data("usage: booklab search <words>\n".utf8))
    exit(2)
}
let query = arguments.dropFirst().joined(separator: " ")
let found = BookCatalogue().matches(query)
for (number, volume) in found.prefix(400).enumerated() {
    let authors = volume.authors.isEmpty ? "unknown author" : volume.authors.joined(separator: ", ")
    print("\(number + 1). \(volume.title) — \(authors) (\(volume.publishedDate ?? "n.d."))")
}
print("\(found.count) matches for \"\(query)\"\(found.count > 400 ? "; showing the first 400" : "").")
