import Foundation

/// CRC-32 as zlib, PNG and Ethernet compute it (reflected polynomial `0xEDB88320`), fed in
/// pieces: the checksum of the disk cache's entries.
///
/// It detects every error of one or two flipped bits and every burst of up to 32 bits (a
/// zeroed byte, a torn word); other damage goes unnoticed with a chance of 1 in 2³².
/// It guards against damage, not against someone who rewrites a file on purpose. Eight
/// bytes are folded in per step through eight tables ("slicing by 8"), so a body of a
/// megabyte costs well under a millisecond in an optimized build.
struct CRC32 {
    private var state: UInt32 = 0xFFFF_FFFF

    /// The checksum of the bytes fed so far.
    var value: UInt32 { ~state }

    /// Feeds `bytes`.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var pointer = bytes.baseAddress, !bytes.isEmpty else { return }
        var remaining = bytes.count
        var crc = state
        Self.tables.withUnsafeBufferPointer { table in
            while remaining >= 8 {
                let low =
                    crc
                    ^ (UInt32(pointer.load(fromByteOffset: 0, as: UInt8.self))
                        | UInt32(pointer.load(fromByteOffset: 1, as: UInt8.self)) << 8
                        | UInt32(pointer.load(fromByteOffset: 2, as: UInt8.self)) << 16
                        | UInt32(pointer.load(fromByteOffset: 3, as: UInt8.self)) << 24)
                crc =
                    table[7 &* 256 &+ Int(low & 0xFF)] ^ table[6 &* 256 &+ Int((low >> 8) & 0xFF)]
                    ^ table[5 &* 256 &+ Int((low >> 16) & 0xFF)] ^ table[4 &* 256 &+ Int(low >> 24)]
                    ^ table[3 &* 256 &+ Int(pointer.load(fromByteOffset: 4, as: UInt8.self))]
                    ^ table[2 &* 256 &+ Int(pointer.load(fromByteOffset: 5, as: UInt8.self))]
                    ^ table[1 &* 256 &+ Int(pointer.load(fromByteOffset: 6, as: UInt8.self))]
                    ^ table[Int(pointer.load(fromByteOffset: 7, as: UInt8.self))]
                pointer += 8
                remaining &-= 8
            }
            while remaining > 0 {
                crc = table[Int((crc ^ UInt32(pointer.load(as: UInt8.self))) & 0xFF)] ^ (crc >> 8)
                pointer += 1
                remaining &-= 1
            }
        }
        state = crc
    }

    /// Feeds the bytes of `data`.
    mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// Eight tables of 256 entries, one after the other: the first is the classic byte-wise
    /// table; entry `i` of table `k` is the CRC of byte `i` followed by `k` zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var crc = UInt32(index)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            tables[index] = crc
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()
}
