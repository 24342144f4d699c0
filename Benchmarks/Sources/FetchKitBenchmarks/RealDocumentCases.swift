import Decoding
import Foundation

/// The public JSON documents the real-document cases decode. They are not kept in the repository
/// (public data is for measuring only): `Benchmarks/Scripts/fetch-documents.sh` downloads them at
/// pinned commits into `Benchmarks/Documents/` (ignored by git) and checks their SHA-256, or
/// `FETCHKIT_JSON_DOCUMENTS` names another folder holding them.
enum RealDocument: String, CaseIterable {
    case twitter = "twitter.json"
    case citm = "citm_catalog.json"
    case githubEvents = "github_events.json"
    case canada = "canada.json"

    static var folder: URL {
        if let path = ProcessInfo.processInfo.environment["FETCHKIT_JSON_DOCUMENTS"] {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        // Benchmarks/Sources/FetchKitBenchmarks/<this file> → Benchmarks/Documents
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Documents", isDirectory: true)
    }

    func load() -> Data? {
        try? Data(contentsOf: RealDocument.folder.appendingPathComponent(rawValue))
    }
}

/// Decodes `document` as `T` `repeats` times, with `decode`, checking the result each time.
private func documentSide<T: Decodable & Equatable>(
    _ name: String, _ document: Data, _ type: T.Type, repeats: Int, expected: T,
    decode: @escaping (Data) throws -> T
) -> Side {
    Side(name: name) {
        var same = true
        let duration = try time {
            for _ in 0..<repeats { same = try decode(document) == expected && same }
        }
        guard same else { throw RawSQLite.Failure(description: "\(name) decoded a different value") }
        return duration
    }
}

/// One case: `PathDecoder` against `JSONDecoder` on `document` as `T`. Both decoders must
/// produce the same value before the case runs.
private func documentCase<T: Decodable & Equatable>(
    _ title: String, _ document: Data, as type: T.Type, repeats: Int, target: Double
) throws -> BenchmarkCase {
    let expected = try JSONDecoder().decode(T.self, from: document)
    let path = try PathDecoder().decode(T.self, from: document)
    guard path == expected else {
        throw RawSQLite.Failure(description: "\(title): PathDecoder and JSONDecoder decode different values")
    }
    let pathDecoder = PathDecoder()
    let jsonDecoder = JSONDecoder()
    return BenchmarkCase(
        name: "Decoding: \(title) (x\(repeats))",
        ours: documentSide("PathDecoder", document, T.self, repeats: repeats, expected: expected) {
            try pathDecoder.decode(T.self, from: $0)
        },
        reference: documentSide("JSONDecoder", document, T.self, repeats: repeats, expected: expected) {
            try jsonDecoder.decode(T.self, from: $0)
        },
        target: target, iterations: 9)
}

/// A document of 10,000 numbers of every shape (issue 52), made here rather than fetched (simdjson's
/// `numbers.json` is not in the snapshots this machine reaches): doubles of 17 significant digits,
/// negatives, exponents large and small in both cases of `e`, short decimals, integral doubles
/// and plain integers, from a fixed seed.
func numbersDocument() -> Data {
    var state: UInt64 = 52
    func next() -> Double {  // SplitMix64, the top 53 bits as a fraction in [0, 1)
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / 0x1p53
    }
    var numbers: [String] = []
    numbers.reserveCapacity(10_000)
    for index in 0..<10_000 {
        let unit = next()
        switch index % 8 {
        case 0: numbers.append("\(unit)")  // shortest round-trip form, up to 17 digits
        case 1: numbers.append("\(-unit * 1000)")
        case 2: numbers.append(String(format: "%.17g", -unit * 1e10))
        case 3: numbers.append(String(format: "%.6e", unit * 1e300))
        case 4: numbers.append(String(format: "%.4E", unit * 1e-200))
        case 5: numbers.append(String(format: "%.3f", unit * 100))
        case 6: numbers.append(String(format: "%.1f", (unit * 1000).rounded()))
        default: numbers.append("\(Int(unit * 2_000_000) - 1_000_000)")
        }
    }
    return Data(("[" + numbers.joined(separator: ",") + "]").utf8)
}

/// The numbers case of issue 52: ``numbersDocument()`` as `[Double]` (target ≤ 0.6x
/// `JSONDecoder`) and as the any-JSON enum (target ≤ 0.9x, where every number is probed as a
/// `Bool` and an `Int64` before it is read as a `Double`).
func numberCases() throws -> [BenchmarkCase] {
    let numbers = numbersDocument()
    return [
        try documentCase("10,000 numbers of every shape, typed", numbers, as: [Double].self, repeats: 50, target: 0.6),
        try documentCase(
            "10,000 numbers of every shape as any JSON", numbers, as: AnyJSON.self, repeats: 10, target: 0.9),
    ]
}

/// The real-document cases of issue 41: each document as typed models (target ≤ 0.6x
/// `JSONDecoder`) and as the any-JSON enum users write (target ≤ 0.9x). Empty, with a note on
/// standard error, when the documents have not been fetched.
func realDocumentCases() throws -> [BenchmarkCase] {
    var documents: [RealDocument: Data] = [:]
    for document in RealDocument.allCases { documents[document] = document.load() }
    let missing = RealDocument.allCases.filter { documents[$0] == nil }.map(\.rawValue)
    guard missing.isEmpty else {
        FileHandle.standardError.write(
            Data(
                ("note: the real-document decoding cases are skipped: \(missing.joined(separator: ", ")) not found in "
                    + "\(RealDocument.folder.path); run Benchmarks/Scripts/fetch-documents.sh\n").utf8))
        return []
    }
    let twitter = documents[.twitter] ?? Data()
    let citm = documents[.citm] ?? Data()
    let events = documents[.githubEvents] ?? Data()
    let canada = documents[.canada] ?? Data()
    return [
        try documentCase(
            "twitter.json, a search timeline, typed", twitter, as: TwitterTimeline.self, repeats: 20, target: 0.6),
        try documentCase("twitter.json as any JSON", twitter, as: AnyJSON.self, repeats: 10, target: 0.9),
        try documentCase(
            "citm_catalog.json, a catalogue keyed by ids, typed", citm, as: CITMCatalog.self, repeats: 5, target: 0.6),
        try documentCase("citm_catalog.json as any JSON", citm, as: AnyJSON.self, repeats: 3, target: 0.9),
        try documentCase(
            "github_events.json, typed events with any-JSON payloads", events, as: [GitHubEvent].self, repeats: 200,
            target: 0.6),
        try documentCase("github_events.json as any JSON", events, as: AnyJSON.self, repeats: 100, target: 0.9),
        try documentCase(
            "canada.json, a mesh of coordinates, typed", canada, as: GeoFeatureCollection.self, repeats: 3, target: 0.6),
        try documentCase("canada.json as any JSON", canada, as: AnyJSON.self, repeats: 2, target: 0.9),
    ]
}
