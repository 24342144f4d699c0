import Decoding
import Foundation
import TestSupport
import Testing

/// nst/JSONTestSuite: `y_` files must parse, `n_` files must be rejected, `i_` files may go
/// either way but must not crash or hang.
@Suite struct JSONTestSuiteTests {
    /// `n_` files Foundation's parser accepts on this toolchain: single trailing commas
    /// (`[1,]`, `["",]`, `{"id":0,}`). Strict mode rejects them.
    static let acceptedByFoundation: Set<String> = [
        "n_array_extra_comma.json",
        "n_array_number_and_comma.json",
        "n_object_trailing_comma.json",
    ]

    /// `y_` files Foundation rejects on this toolchain: `[0e1]` does not decode as `Double`
    /// (it does as `Int` or `Decimal`). Strict mode's checker accepts it, but decoding still
    /// goes through Foundation, so it still throws.
    static let rejectedByFoundation: Set<String> = [
        "y_number_0e1.json"
    ]

    /// Any JSON value.
    struct AnyJSON: Decodable {
        init(from decoder: any Decoder) throws {
            if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
                for key in container.allKeys { _ = try container.decode(AnyJSON.self, forKey: key) }
            } else if var container = try? decoder.unkeyedContainer() {
                while !container.isAtEnd { _ = try container.decode(AnyJSON.self) }
            } else {
                let container = try decoder.singleValueContainer()
                if container.decodeNil() { return }
                if (try? container.decode(Bool.self)) != nil { return }
                if (try? container.decode(String.self)) != nil { return }
                // Numbers are read as Double, as JSONSerialization and most apps read them.
                _ = try container.decode(Double.self)
            }
        }
    }

    static func files(_ prefix: String) throws -> [URL] {
        try Fixtures.files(in: "jsontestsuite").filter { $0.lastPathComponent.hasPrefix(prefix) }
    }

    @Test func corpusIsComplete() throws {
        #expect(try Self.files("y_").count == 95)
        #expect(try Self.files("n_").count == 188)
        #expect(try Self.files("i_").count == 35)
    }

    @Test func everyAcceptFileParsesExceptFoundationsKnownRejection() throws {
        var rejected: Set<String> = []
        for file in try Self.files("y_") {
            do {
                _ = try PathDecoder().decode(AnyJSON.self, from: try Data(contentsOf: file))
            } catch {
                rejected.insert(file.lastPathComponent)
            }
        }
        #expect(rejected == Self.rejectedByFoundation)
    }

    @Test func everyRejectFileThrowsExceptFoundationsKnownAcceptances() throws {
        var accepted: Set<String> = []
        for file in try Self.files("n_") {
            do {
                _ = try PathDecoder().decode(AnyJSON.self, from: try Data(contentsOf: file))
                accepted.insert(file.lastPathComponent)
            } catch let failure as DecodingFailure {
                #expect(failure.code == .invalidJSON || failure.code == .typeMismatch, "\(file.lastPathComponent)")
            }
        }
        #expect(accepted == Self.acceptedByFoundation)
    }

    @Test func strictModeRejectsEveryRejectFile() throws {
        let strict = PathDecoder { $0.isStrict = true }
        for file in try Self.files("n_") {
            let failure = #expect(throws: DecodingFailure.self, "\(file.lastPathComponent)") {
                try strict.decode(AnyJSON.self, from: try Data(contentsOf: file))
            }
            #expect(failure?.code == .invalidJSON, "\(file.lastPathComponent)")
        }
    }

    @Test func strictModeAcceptsWhatFoundationAcceptsOfTheAcceptFiles() throws {
        let strict = PathDecoder { $0.isStrict = true }
        for file in try Self.files("y_") where !Self.rejectedByFoundation.contains(file.lastPathComponent) {
            #expect(throws: Never.self, "\(file.lastPathComponent)") {
                try strict.decode(AnyJSON.self, from: try Data(contentsOf: file))
            }
        }
    }

    @Test func implementationDefinedFilesNeitherCrashNorHang() throws {
        for file in try Self.files("i_") {
            let data = try Data(contentsOf: file)
            _ = try? PathDecoder().decode(AnyJSON.self, from: data)
            _ = try? PathDecoder { $0.isStrict = true }.decode(AnyJSON.self, from: data)
        }
    }
}
