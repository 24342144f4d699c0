import Foundation

/// Folder names for identities: one folder per identity, whatever its bytes.
enum FolderNames {
    /// The folder name of an identity (an account, a collection, a record): every byte but `a-z`, `0-9`, `_` and `-` as `%XX`, so that
    /// no two identities share a folder, even on a file system that ignores case.
    static func name(of id: String) -> String {
        var name = ""
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"),
                UInt8(ascii: "-"):
                name.append(Character(Unicode.Scalar(byte)))
            default:
                name += String(format: "%%%02X", byte)
            }
        }
        return name
    }

    /// The identity of a folder ``name(of:)`` named; `nil` for any other name.
    static func id(ofFolder name: String) -> String? {
        var bytes: [UInt8] = []
        var rest = Substring(name)
        while let first = rest.first {
            if first == "%" {
                guard rest.count >= 3, let byte = UInt8(rest.dropFirst().prefix(2), radix: 16) else { return nil }
                bytes.append(byte)
                rest = rest.dropFirst(3)
            } else {
                guard let ascii = first.asciiValue else { return nil }
                bytes.append(ascii)
                rest = rest.dropFirst()
            }
        }
        guard !bytes.isEmpty, let id = String(validating: bytes, as: UTF8.self), Self.name(of: id) == name else {
            return nil
        }
        return id
    }
}
