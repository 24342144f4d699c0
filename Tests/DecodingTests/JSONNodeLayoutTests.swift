@testable import Decoding
import Testing

/// The parsed node list is the fast path's largest allocation: a node is 12 bytes, its kind,
/// flags and `next` packed in one word, and the packing loses nothing within the limits.
@Suite struct JSONNodeLayoutTests {
    @Test func aNodeIsTwelveBytes() {
        #expect(MemoryLayout<JSONNode>.stride == 12)
    }

    @Test func kindFlagsAndNextComeBackAsStoredUpToTheLimit() {
        let kinds: [JSONNode.Kind] = [.null, .false, .true, .number, .string, .array, .object]
        for kind in kinds {
            for flags: UInt8 in 0...7 {
                for next in [0, 1, 4_096, JSONNode.maximumCount - 1, JSONNode.maximumCount] {
                    var node = JSONNode(kind: kind, flags: flags, start: Int32.max, length: Int32.max, next: Int32(next))
                    #expect(node.kind == kind && node.flags == flags && node.next == Int32(next))
                    #expect(node.start == Int32.max && node.length == Int32.max)
                    node.next = 7
                    #expect(node.kind == kind && node.flags == flags && node.next == 7)
                }
            }
        }
    }
}
