import Decoding
import Foundation

/// The size of the large JSON array the decoding memory cases read: 50 MB.
let largeArrayBytes = 50_000_000

/// A JSON array of about `largeArrayBytes` bytes: the small movie repeated, each with its own id,
/// title and popularity. Built in place, so the input costs its own size.
func largeMovieArray() -> (data: Data, count: Int) {
    var data = Data()
    data.reserveCapacity(largeArrayBytes + 200)
    data.append(UInt8(ascii: "["))
    var count = 0
    while data.count < largeArrayBytes {
        if count > 0 { data.append(UInt8(ascii: ",")) }
        data.append(
            contentsOf: #"{"id":\#(count),"title":"Fight Club \#(count % 1000)","popularity":\#(Double(count % 9973) / 7),"vote_count":26279,"video":false}"#
                .utf8)
        count += 1
    }
    data.append(UInt8(ascii: "]"))
    return (data, count)
}

/// Issue 41's memory goal: decoding a 50 MB array keeps peak memory within three times the input.
/// Read each row against the "input only" row: what decoding adds is the difference.
let decodingMemoryCases: [MemoryCase] = [
    MemoryCase(name: "Decoding: a 50 MB JSON array, built (the input only)") { _ in
        let (data, count) = largeMovieArray()
        guard data.count >= largeArrayBytes, count > 0 else {
            throw RawSQLite.Failure(description: "the array has \(data.count) bytes")
        }
    },
    MemoryCase(name: "Decoding: the 50 MB array decoded by PathDecoder into [SmallMovie]") { _ in
        let (data, count) = largeMovieArray()
        let movies = try PathDecoder().decode([SmallMovie].self, from: data)
        guard movies.count == count else {
            throw RawSQLite.Failure(description: "PathDecoder decoded \(movies.count) of \(count) movies")
        }
    },
    MemoryCase(name: "Decoding: the 50 MB array decoded by JSONDecoder into [SmallMovie] (reference)") { _ in
        let (data, count) = largeMovieArray()
        let movies = try JSONDecoder().decode([SmallMovie].self, from: data)
        guard movies.count == count else {
            throw RawSQLite.Failure(description: "JSONDecoder decoded \(movies.count) of \(count) movies")
        }
    },
]
