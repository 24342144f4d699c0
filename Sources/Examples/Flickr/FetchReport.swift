import Foundation

/// What one fetch of recent photos came to.
struct FetchReport: Sendable {
    /// A photo left out, and why.
    struct Skipped: Sendable {
        /// The photo's id, when it could be read.
        var id: String?
        var reason: String
    }

    /// Photos in Flickr's answer.
    var received = 0
    /// Photos left out: no usable location, or not decodable.
    var skipped: [Skipped] = []
    /// Photos stored for the first time.
    var new = 0
    /// Photos already stored, updated in place.
    var updated = 0
    /// Photos removed because the snapshot of recent photos no longer holds them.
    var removed = 0
    /// Marked photos in the store after the fetch (kept whether recent or not).
    var marked = 0
    /// Photos in the store after the fetch.
    var stored = 0
    /// Bytes downloaded.
    var bytes = 0

    /// `24 new, 213 already stored, 24 removed (no longer recent), 13 skipped without a usable
    /// location; the store holds 238 photos (1 marked)`.
    var summary: String {
        var text = "\(new) new, \(updated) already stored"
        if removed > 0 { text += ", \(removed) removed (no longer recent)" }
        if !skipped.isEmpty { text += ", \(skipped.count) skipped without a usable location" }
        text += "; the store holds \(Self.count(stored, "photo"))"
        return marked > 0 ? text + " (\(marked) marked)" : text
    }

    /// `1 photo`, `2 photos`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
