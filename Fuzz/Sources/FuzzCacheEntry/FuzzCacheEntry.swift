// The disk cache's entry files: each input is read twice from a real file, as it is (its own
// prefix, lengths and checksum: nearly always damage, which must read as `nil`) and wrapped in
// a valid prefix with the right lengths and checksum (so the head's JSON and the body are
// what the reader judges). Reading never crashes, and an entry read back encodes again.
import Foundation

@testable import FetchKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One scratch file for the whole run, rewritten for each input.
let scratch: Int32 = {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-cache-entry-\(getpid())").path
    let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
    unlink(path)  // gone from the folder at once; the descriptor keeps it until the run ends
    return descriptor
}()

func read(_ bytes: Data) -> CachedResponse? {
    _ = ftruncate(scratch, 0)
    _ = bytes.withUnsafeBytes { pwrite(scratch, $0.baseAddress, $0.count, 0) }
    _ = lseek(scratch, 0, SEEK_SET)
    return CacheEntryFile.read(from: scratch, size: bytes.count, bodyLimit: 1 << 20)
}

func bigEndian<T: FixedWidthInteger>(_ value: T) -> Data {
    withUnsafeBytes(of: value.bigEndian) { Data($0) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Data(bytes: bytes, count: count)
    _ = read(input)
    // The first two bytes split the rest into head and body.
    guard count >= 2 else { return 0 }
    let split = min(count - 2, Int(bytes[0]) << 8 | Int(bytes[1]))
    let head = input.subdata(in: 2..<(2 + split))
    let body = input.subdata(in: (2 + split)..<count)
    var fields = bigEndian(CacheEntryFile.version)
    fields.append(bigEndian(UInt32(head.count)))
    fields.append(bigEndian(UInt64(body.count)))
    var checksum = CRC32()
    checksum.update(fields)
    checksum.update(head)
    checksum.update(body)
    var file = CacheEntryFile.magic
    file.append(fields)
    file.append(bigEndian(checksum.value))
    file.append(head)
    file.append(body)
    if let entry = read(file) {
        guard entry.body == body, CacheEntryFile.encode(entry) != nil else {
            fatalError("an entry read from a valid file does not hold its body or does not encode again")
        }
    }
    return 0
}
