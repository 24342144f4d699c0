import Foundation
import Testing

@testable import Decoding

/// One test per reason the fast path defers: each fails if the fast path accepts the input,
/// and each checks that ``PathDecoder`` still returns what the `JSONDecoder` path returns.
@Suite struct FastPathDeferralTests {
    struct Count: Decodable, Equatable { var n: Int }
    struct Unsigned: Decodable, Equatable { var n: UInt64 }
    struct Real: Decodable, Equatable { var n: Double }
    struct Single: Decodable, Equatable { var n: Float }
    struct Money: Decodable, Equatable { var n: Decimal }
    struct Text: Decodable, Equatable { var s: String }
    struct Blob: Decodable, Equatable { var d: Data }
    struct Stamp: Decodable, Equatable { var t: Date }
    struct SnakeCase: Decodable, Equatable { var firstName: String }
    struct Nested: Decodable, Equatable {
        enum CodingKeys: String, CodingKey { case title = "info.title" }
        var title: String
    }

    /// Checks that the fast path defers for `reason` and that both ways agree.
    func expectDeferral<T: Decodable & Equatable>(
        _ type: T.Type, _ text: String, _ reason: FastDeferral.Reason, at path: String? = nil,
        decoder: PathDecoder = PathDecoder(), sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let outcome = Differential.compare(type, json(text), at: path, decoder: decoder, sourceLocation: sourceLocation)
        #expect(outcome == .deferred(reason), sourceLocation: sourceLocation)
    }

    @Test func theFastPathDecodesPlainInput() {
        #expect(Differential.compare(Count.self, json(#"{"n": -42}"#)) == .decoded)
        #expect(Differential.compare(Real.self, json(#"{"n": 73.433}"#)) == .decoded)
        #expect(Differential.compare(Real.self, json(#"{"n": 0.0}"#)) == .decoded)
        #expect(Differential.compare(Single.self, json(#"{"n": 0.1}"#)) == .decoded)
        #expect(Differential.compare(Text.self, json(#"{"s": "a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"}"#)) == .decoded)
        #expect(Differential.compare(Nested.self, json(#"{"info": {"title": "Dawn"}}"#)) == .decoded)
        #expect(Differential.compare(Stamp.self, json(#"{"t": 12.5}"#)) == .decoded)
    }

    @Test func aFractionOrAnExponentReadAsAnIntegerIsReadOnTheFastPath() {
        #expect(Differential.compare(Count.self, json(#"{"n": 1.0}"#)) == .decoded)
        #expect(Differential.compare(Count.self, json(#"{"n": 1e2}"#)) == .decoded)
        // A fraction whose value is not whole throws the path-aware containers' error at once.
        #expect(Differential.compare(Count.self, json(#"{"n": 1.5}"#)) == .failed)
        #expect(Differential.compare([Count].self, json(#"[{"n": -73.433}]"#)) == .failed)
        #expect(Differential.compare([Int8].self, json(#"[1, 2.25]"#)) == .failed)
    }

    @Test func integersBeyondEighteenDigitsOrTheTypesRangeAreReadOnTheFastPath() {
        #expect(Differential.compare(Count.self, json(#"{"n": 12345678901234567890}"#)) == .failed)
        #expect(Differential.compare(Count.self, json(#"{"n": 123456789012345678901234567890}"#)) == .failed)
        #expect(Differential.compare(Unsigned.self, json(#"{"n": 18446744073709551615}"#)) == .decoded)
        #expect(Differential.compare(Unsigned.self, json(#"{"n": -1}"#)) == .failed)
        #expect(Differential.compare([UInt8].self, json(#"[300]"#)) == .failed)
        #expect(Differential.compare(Count.self, json(#"{"n": -0}"#)) == .decoded)
    }

    @Test func floatingPointWithAnExponentANegativeZeroOrAnUnderflowIsReadOnTheFastPath() {
        #expect(Differential.compare(Real.self, json(#"{"n": 1e2}"#)) == .decoded)
        // Foundation refuses `0e1` (its test for a true zero reads the exponent's digit first).
        #expect(Differential.compare(Real.self, json(#"{"n": 0e1}"#)) == .failed)
        #expect(Differential.compare(Real.self, json(#"{"n": -0.0}"#)) == .decoded)
        #expect(Differential.compare(Real.self, json(#"{"n": 1E400}"#)) == .failed)
        #expect(Differential.compare(Real.self, json("{\"n\": 0.\(String(repeating: "0", count: 400))1}")) == .failed)
        #expect(Differential.compare(Single.self, json("{\"n\": 1\(String(repeating: "0", count: 40)).5}")) == .failed)
    }

    @Test func aNumberWhoseDecimalFormOverflowsReadAsAnIntegerIsRefusedNotACrash() {
        // Foundation reads it through `Decimal`, which overflows, and stops on a precondition
        // (the process ends): the fast path refuses it as a number that does not fit.
        let number = "0.\(String(repeating: "0", count: 130))9007199254740993e146"
        let outcome = PathDecoder().decodeOnFastPath(Unsigned.self, from: json(#"{"n": \#(number)}"#))
        guard case .failure(.failed(let failure)) = outcome else {
            Issue.record("the fast path did not refuse it: \(outcome)")
            return
        }
        #expect(failure.message.contains("does not fit"))
        #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(Unsigned.self, from: json(#"{"n": \#(number)}"#))
        }
    }

    /// The same number in a document the fast path defers for another reason (a duplicate key, a
    /// `Decimal` elsewhere) is refused before `JSONDecoder` reads it, with a typed failure naming
    /// it, not a crash. The same text in a string, and integers written in digits, read as before.
    @Test func aNumberFoundationStopsOnIsRefusedOnTheJSONDecoderRouteToo() throws {
        let number = "0.\(String(repeating: "0", count: 130))9007199254740993e146"
        for text in [#"{"n": \#(number), "x": 1, "x": 2}"#, #"{"x": [-\#(number)], "n": 5, "x": 2}"#] {
            do {
                _ = try PathDecoder().decode(Unsigned.self, from: json(text))
                Issue.record("decoded \(text)")
            } catch {
                #expect(error.code == .invalidValue)
                #expect(error.message.contains("cannot be read by JSONDecoder"), "\(error.message)")
                #expect(error.message.contains("0.0000"), "\(error.message)")
            }
        }
        #expect(throws: DecodingFailure.self) {
            try PathDecoder().decode(Money.self, from: json(#"{"n": \#(number)}"#))
        }
        // UTF-16 and UTF-32, which the fast path defers and JSONDecoder reads as UTF-8.
        for encoding in [String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32] {
            let data = try #require(#"{"n": \#(number)}"#.data(using: encoding))
            #expect(throws: DecodingFailure.self, "\(encoding)") { try PathDecoder().decode(Unsigned.self, from: data) }
        }
        let quoted = #"{"n": 18446744073709551615, "s": "\"\#(number)", "x": 1, "x": 2}"#
        struct Both: Decodable, Equatable {
            var n: UInt64
            var s: String
        }
        #expect(try PathDecoder().decode(Both.self, from: json(quoted)) == Both(n: .max, s: "\"\(number)"))
    }

    @Test func decimalDataAndNonDefaultDatesDefer() {
        expectDeferral(Money.self, #"{"n": 1.5}"#, .unsupported)
        expectDeferral(Blob.self, #"{"d": "AQID"}"#, .unsupported)
        expectDeferral(
            Stamp.self, #"{"t": 12.5}"#, .unsupported,
            decoder: PathDecoder { $0.dateDecodingStrategy = .secondsSince1970 })
    }

    @Test func aKeyDecodingStrategyDefers() {
        expectDeferral(
            SnakeCase.self, #"{"first_name": "Ann"}"#, .settings,
            decoder: PathDecoder { $0.keyDecodingStrategy = .convertFromSnakeCase })
    }

    @Test func loneSurrogatesDefer() {
        expectDeferral(Text.self, #"{"s": "\uD800"}"#, .loneSurrogate)
        expectDeferral(Text.self, #"{"s": "\uDC00x"}"#, .loneSurrogate)
        expectDeferral(Text.self, #"{"s": "\uD800\u0041"}"#, .loneSurrogate)
        expectDeferral(Text.self, #"{"s": "\uD800\n"}"#, .loneSurrogate)
    }

    @Test func duplicateKeysDeferEvenWhenTheyAreOnlyCanonicallyEqual() {
        expectDeferral(Text.self, #"{"s": "a", "s": "b"}"#, .duplicateKey)
        // "é" precomposed and decomposed: one key to Foundation's dictionary.
        expectDeferral([String: Int].self, "{\"\u{E9}\": 1, \"e\u{301}\": 2}", .duplicateKey)
        expectDeferral([String: Int].self, #"{"\u0041": 1, "A": 2}"#, .duplicateKey)
        let many = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        expectDeferral([String: Int].self, "{\(many), \"k7\": 0}", .duplicateKey)
        expectDeferral([String: Int].self, "{\"k39\": 0, \(many)}", .duplicateKey)
        // Many distinct keys, some with the same length and first bytes: decoded on the fast path.
        let distinct = (0..<300).map { "\"key\($0)\": \($0)" }.joined(separator: ", ")
        #expect(Differential.compare([String: Int].self, json("{\(distinct)}")) == .decoded)
    }

    @Test func aKeyIsFoundAsFoundationFindsIt() {
        // U+212A KELVIN SIGN is canonically equivalent to "K": Foundation's lookup finds it.
        struct Kelvin: Decodable, Equatable {
            enum CodingKeys: String, CodingKey { case value = "\u{212A}" }
            var value: Int
        }
        #expect(Differential.compare(Kelvin.self, json(#"{"K": 1}"#)) == .decoded)
        #expect(Differential.compare(Text.self, json(#"{"\u0073": "escaped key"}"#)) == .decoded)
    }

    @Test func keysOfLargeObjectsAreFoundThroughAnIndex() {
        struct Wide: Decodable, Equatable {
            enum CodingKeys: String, CodingKey {
                case first = "k0", last = "k99", kelvin = "\u{212A}", missing = "k100"
            }
            var first: Int
            var last: Int
            var kelvin: Int
            var missing: Int?
        }
        let members = (0..<100).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        #expect(Differential.compare(Wide.self, json("{\(members), \"K\": 7}")) == .decoded)
        #expect(Differential.compare([String: Int].self, json("{\(members)}")) == .decoded)
    }

    /// The parser skips plain text eight bytes at a time: an escape, a non-ASCII character, the
    /// closing quote or a control character at any offset is still seen.
    @Test func aSpecialCharacterAtAnyOffsetOfAStringIsSeen() {
        for offset in 0..<20 {
            let head = String(repeating: "a", count: offset)
            let tail = String(repeating: "b", count: 19 - offset)
            for special in [#"\""#, #"\\"#, #"\n"#, "\u{E9}", "\u{1F600}", #"\u0041"#, ""] {
                #expect(Differential.compare(Text.self, json(#"{"s": ""# + head + special + tail + #""}"#)) == .decoded)
            }
            expectDeferral(Text.self, #"{"s": ""# + head + "\u{1F}" + tail + #""}"#, .notStrictJSON)
            expectDeferral(Text.self, #"{"s": ""# + head + "\u{7F}\u{0}" + tail + #""}"#, .notStrictJSON)
            expectDeferral(Text.self, #"{"s": ""# + head + #"\x"# + tail + #""}"#, .notStrictJSON)
        }
        // Bytes that are not UTF-8 at any offset.
        for offset in 0..<12 {
            for byte: UInt8 in [0x80, 0x9F, 0xBF, 0xC0, 0xFF] {
                var bytes = Array(#"{"s": "aaaaaaaaaaaaaaaaaaaaaaaa"}"#.utf8)
                bytes[7 + offset] = byte
                #expect(Differential.compare(Text.self, Data(bytes)) == .deferred(.notStrictJSON))
            }
        }
    }

    @Test func textThatIsNotStrictJSONDefers() {
        expectDeferral([Int].self, "[1,]", .notStrictJSON)
        expectDeferral(Count.self, #"{"n": 1,}"#, .notStrictJSON)
        expectDeferral(Count.self, "\u{FEFF}{\"n\": 1}", .notStrictJSON)
        expectDeferral(
            JSONValue.self, String(repeating: "[", count: 300) + String(repeating: "]", count: 300), .notStrictJSON)
        expectDeferral(Count.self, "{\"n\": 1} x", .notStrictJSON)
        expectDeferral(Count.self, #"{"n": 1,}"#, .notStrictJSON, decoder: PathDecoder { $0.isStrict = true })
        #expect(
            Differential.compare(Count.self, json(#"{"n": 1}"#), decoder: PathDecoder { $0.isStrict = true })
                == .decoded)
    }

    @Test func aValueThatDoesNotFitThrowsFoundationsErrorWithoutDeferring() {
        #expect(Differential.compare(Count.self, json(#"{"m": 1}"#)) == .failed)
        #expect(Differential.compare(Count.self, json(#"{"n": null}"#)) == .failed)
        #expect(Differential.compare(Count.self, json(#"{"n": "1"}"#)) == .failed)
        #expect(Differential.compare(Nested.self, json(#"{"info": {"title": 1}}"#)) == .failed)
        #expect(Differential.compare(String.self, json(#"{"a": 1}"#), at: "a") == .failed)
        #expect(Differential.compare(URL.self, json(#"{"a": ""}"#), at: "a") == .failed)
        #expect(Differential.compare([Stamp].self, json(#"[{"t": null}]"#)) == .failed)
    }

    @Test func aPathThatDoesNotResolveThrowsPathNavigatorsErrorOnTheFastPath() {
        #expect(Differential.compare(Nested.self, json(#"{"info": {}}"#)) == .failed)
        #expect(Differential.compare(Nested.self, json(#"{"info": []}"#)) == .failed)
        #expect(Differential.compare(Nested.self, json(#"{"info": null}"#)) == .failed)
        #expect(Differential.compare(Nested.self, json(#"{"info": 1}"#)) == .failed)
        #expect(Differential.compare(Nested.self, json(#"{}"#)) == .failed)
        #expect(Differential.compare(String.self, json(#"{"a": 1}"#), at: "b") == .failed)
        #expect(Differential.compare(String.self, json(#"[1]"#), at: "b") == .failed)
        #expect(Differential.compare(String.self, json("null"), at: "b") == .failed)
        #expect(Differential.compare(String.self, json("1"), at: "b") == .failed)
        #expect(Differential.compare(String?.self, json("1"), at: "b") == .failed)
        #expect(Differential.compare(String?.self, json("null"), at: "b") == .decoded)
        #expect(Differential.compare(Int.self, json(#"{"a": [1, 2]}"#), at: "a[5]") == .failed)
        #expect(Differential.compare(Int.self, json(#"{"a": []}"#), at: "a.last") == .failed)
        #expect(Differential.compare(Int.self, json(#"{"a": [null]}"#), at: "a[0].b") == .failed)
        #expect(Differential.compare(Int.self, json(#"{"a": [{"k": "x", "v": 1}]}"#), at: "a[k=y].v") == .failed)
        #expect(Differential.compare(Int.self, json(#"{"a": [{"k": 1e400, "v": 1}]}"#), at: "a[k=1].v") == .failed)
        #expect(Differential.compare(Int.self, json(#"{"a": [{"k": 1e2, "v": 1}]}"#), at: "a[k=100].v") == .decoded)
        #expect(Differential.compare(Int.self, json(#"{"a": {"b": 1}}"#), at: "a[0]") == .failed)
        #expect(Differential.compare(Int?.self, json(#"{"a": {"b": 1}}"#), at: "a[0]") == .failed)
        #expect(Differential.compare(Int.self, json(#"{"a": [[1]]}"#), at: "a[0].b") == .failed)
    }

    /// Path keys read under `try?`, `decodeIfPresent`, `contains` and `decodeNil`, on every
    /// shape a path can fail on: each error is caught on the fast path, as the other route
    /// catches it, and no decoding takes the second route.
    @Test func aCaughtPathKeyErrorDoesNotDefer() throws {
        let documents = [
            #"{"a": {"b": {"c": 1}}, "list": [{"k": "x", "v": 2}, null, 3], "n": null, "s": "t"}"#,
            #"{"a": {"b": []}, "list": [], "n": [{"x": 1}], "s": [1]}"#,
            #"{"a": {"b": null}, "list": 5, "n": [null], "s": [{"t": 1}]}"#,
            #"{"a": 1, "list": [[1], {"k": "y"}, {"v": 1}], "n": 1e400}"#,
            #"{"a": {"b": {"c": null}}, "list": [{"k": 1e2, "v": "w"}, {"k": "x"}], "n": "x", "s": null}"#,
            #"{}"#,
        ]
        let counter = SecondRouteCounter()
        SecondRouteCounter.$current.withValue(counter) {
            for text in documents {
                #expect(Differential.compare(PathProbe.self, json(text)) == .decoded, "\(text)")
            }
        }
        #expect(counter.recorded == [])
    }

    /// In a keyed container, a path whose next step is an index on an object (`list[0]`, `list`
    /// an object) defers: ``PathNavigator``'s error there depends on its cache.
    @Test func anIndexStepOnAnObjectOnTheWayDefers() {
        expectDeferral(PathProbe.self, #"{"list": {"0": 1}}"#, .pathError)
        expectDeferral(PathProbe.self, #"{"s": {"t": 1}}"#, .pathError)
        // The path given to `decode(_:from:at:)` has no cache: its error is thrown at once.
        #expect(Differential.compare(Int.self, json(#"{"a": {"b": 1}}"#), at: "a[0]") == .failed)
    }

    /// Every path key of ``PathProbe/CodingKeys`` read every way, what each gave or threw recorded.
    struct PathProbe: Decodable, Equatable {
        enum CodingKeys: String, CodingKey, CaseIterable {
            case deep = "a.b.c", middle = "a.b", index = "list[0].v", filter = "list[k=x].v", last = "list.last"
            case first = "list.first.k", outOfRange = "list[7]", nullStep = "n.x", keyOnArray = "s.t"
            case indexOnObject = "s[0]", nested = "list[1].v", numberAsKey = "n[0].x"
        }
        var log: [String] = []

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            for key in CodingKeys.allCases {
                log.append("\(key.rawValue) contains \(container.contains(key))")
                log.append(Self.outcome("\(key.rawValue) nil") { try container.decodeNil(forKey: key) })
                log.append(Self.outcome("\(key.rawValue) int") { try container.decode(Int.self, forKey: key) })
                log.append(
                    Self.outcome("\(key.rawValue) int?") { try container.decodeIfPresent(Int.self, forKey: key) })
                log.append(Self.outcome("\(key.rawValue) string") { try container.decode(String.self, forKey: key) })
                log.append(Self.outcome("\(key.rawValue) any") { try container.decode(AnyJSON.self, forKey: key) })
                log.append(
                    Self.outcome("\(key.rawValue) any?") { try container.decodeIfPresent(AnyJSON.self, forKey: key) })
                let double = try? container.decode(Double.self, forKey: key)
                log.append("\(key.rawValue) try? \(String(describing: double))")
            }
        }

        static func outcome<T>(_ label: String, _ body: () throws -> T) -> String {
            do {
                return "\(label): \(try body())"
            } catch let error as DecodingError {
                return "\(label) threw \(ErrorShape(error))"
            } catch {
                return "\(label) threw \(error)"
            }
        }
    }

    @Test func aLeafFoundationRefusesAtTheTopDefers() {
        // `PathDecoder` decodes it again through the path-aware wrapper, whose error differs.
        expectDeferral(URL.self, #""""#, .refusedAtTheTop)
    }

    @Test func aFloatFromAStringUnderAConvertingStrategyDefers() {
        let converting = PathDecoder {
            $0.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        }
        expectDeferral(Single.self, #"{"n": "-inf"}"#, .settings, decoder: converting)
        expectDeferral(Real.self, #"{"n": "x"}"#, .settings, decoder: converting)
        #expect(Differential.compare(Real.self, json(#"{"n": 1.5}"#), decoder: converting) == .decoded)
        #expect(Differential.compare(Real.self, json(#"{"n": true}"#), decoder: converting) == .failed)
    }

    @Test func anErrorATypeCatchesDoesNotDefer() {
        /// Probes with `try?`: the fast path's error is swallowed, and the fast path goes on.
        struct Probing: Decodable, Equatable {
            var value: String
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let text = try? container.decode(String.self) {
                    value = text
                } else {
                    value = String(try container.decode(Int.self))
                }
            }
        }
        #expect(Differential.compare(Probing.self, json("7")) == .decoded)
        #expect(Differential.compare(Probing.self, json("true")) == .failed)
        #expect(Differential.compare(Photo.self, json(#"{"id": "1", "title": "t", "latitude": "1.5"}"#)) == .decoded)
        #expect(Differential.compare([LossyArray<Int>].self, json(#"[[1, "two", 3]]"#)) == .decoded)
    }

    @Test func anErrorATypeCatchesAfterTheFastPathGaveUpStillDefers() {
        /// Catches the deferral of a type the fast path leaves to `JSONDecoder`.
        struct Probing: Decodable, Equatable {
            var value: Decimal?
            init(from decoder: any Decoder) throws {
                value = try? decoder.singleValueContainer().decode(Decimal.self)
            }
        }
        expectDeferral(Probing.self, "1.5", .unsupported)
        /// A number the type cannot hold is an error the fast path throws itself.
        struct ProbingInteger: Decodable, Equatable {
            var value: Int8?
            init(from decoder: any Decoder) throws {
                value = try? decoder.singleValueContainer().decode(Int8.self)
            }
        }
        #expect(Differential.compare(ProbingInteger.self, json("1e2")) == .decoded)
        #expect(Differential.compare(ProbingInteger.self, json("1e3")) == .decoded)
        #expect(Differential.compare(ProbingInteger.self, json("\"1\"")) == .decoded)
    }

    @Test func superDecodersDefer() {
        struct Parent: Decodable, Equatable {
            var n: Int
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyCodingKey.self)
                n = try Int(from: try container.superDecoder(forKey: AnyCodingKey("n")))
            }
        }
        expectDeferral(Parent.self, #"{"n": 1}"#, .unsupported)
    }

    @Test func nestedContainersOpenedWithAPathKeyDefer() {
        struct KeyedAtPath: Decodable, Equatable {
            enum CodingKeys: String, CodingKey { case info = "data.info" }
            enum InfoKeys: String, CodingKey { case title }
            var title: String
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                let info = try container.nestedContainer(keyedBy: InfoKeys.self, forKey: .info)
                title = try info.decode(String.self, forKey: .title)
            }
        }
        struct UnkeyedAtPath: Decodable, Equatable {
            enum CodingKeys: String, CodingKey { case list = "data.list" }
            var first: Int
            init(from decoder: any Decoder) throws {
                var list = try decoder.container(keyedBy: CodingKeys.self).nestedUnkeyedContainer(forKey: .list)
                first = try list.decode(Int.self)
            }
        }
        expectDeferral(KeyedAtPath.self, #"{"data": {"info": {"title": "Dawn"}}}"#, .unsupported)
        expectDeferral(UnkeyedAtPath.self, #"{"data": {"list": [7, 8]}}"#, .unsupported)
    }

    @Test func anUnkeyedContainersSuperDecoderDefers() {
        struct First: Decodable, Equatable {
            var n: Int
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                n = try Int(from: try container.superDecoder())
            }
        }
        expectDeferral(First.self, "[1, 2]", .unsupported)
    }

    @Test func anUncaughtErrorAfterAllKeysWereListedDefers() {
        // `JSONDecoder` visits a dictionary's members in its own order: which error comes first
        // is its to say.
        expectDeferral([String: Int].self, #"{"a": 1, "b": "x", "c": true}"#, .keyOrder)
        expectDeferral(AnyJSON.self, #"{"a": [1], "b": {"c": [true, 1e400]}}"#, .keyOrder)
        // A caught error, or none, after listing the keys does not defer.
        #expect(Differential.compare([String: Int].self, json(#"{"a": 1, "b": 2}"#)) == .decoded)
        #expect(Differential.compare([String: AnyJSON].self, json(#"{"a": 1e2, "b": "x", "c": [0e1]}"#)) == .decoded)
        #expect(Differential.compare([String: LossyArray<Int>].self, json(#"{"a": [1, "x"], "b": []}"#)) == .decoded)
    }

    /// A text of 2 GiB, or of 67,108,863 values, is too much to build in a test: the parser's
    /// limits are lowered through its parameters, which `PathDecoder` leaves at their defaults.
    @Test func aTextLargerThanTheParserIndexesDefers() {
        func parse(_ text: String, byteLimit: Int = .max, nodeLimit: Int = .max) -> FastDeferral.Reason? {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBufferPointer { buffer -> FastDeferral.Reason? in
                let parsed = Result { () throws(FastDeferral) in
                    try JSONParser.parse(buffer, byteLimit: byteLimit, nodeLimit: nodeLimit)
                }
                guard case .failure(let deferral) = parsed else { return nil }
                return deferral.reason
            }
        }
        // `[1,2]` is three nodes and five bytes.
        #expect(parse("[1,2]", nodeLimit: 3) == nil)
        #expect(parse("[1,2]", nodeLimit: 2) == .tooLarge)
        #expect(parse(#"{"a":1}"#, nodeLimit: 2) == .tooLarge)
        #expect(parse(#"{"a":1}"#, nodeLimit: 3) == nil)
        #expect(parse("[1,2]", byteLimit: 6) == nil)
        #expect(parse("[1,2]", byteLimit: 5) == .tooLarge)
        // The defaults are the nodes' limits.
        #expect(JSONNode.maximumCount == 67_108_863)
        #expect(parse("[1,2]") == nil)
    }

    @Test func reportEntriesOfADeferredAttemptAreNotRepeated() throws {
        struct Page: Decodable {
            @DefaultValue<Defaults.Zero<Int>> var count: Int
            @LosslessValue var id: String
        }
        let data = json(#"{"count": null, "id": 12}"#)
        var foundation = PathDecoder()
        foundation.route = .foundationOnly
        let (_, expected) = try foundation.decodeWithReport(Page.self, from: data)
        let (_, report) = try PathDecoder().decodeWithReport(Page.self, from: data)
        #expect(report == expected)
        #expect(report.entries.count == 2)
    }

    @Test func reportEntriesOfASuccessfulAttemptReachTheReport() throws {
        struct Page: Decodable {
            @DefaultValue<Defaults.Zero<Int>> var count: Int
            @DefaultEmpty var items: [Int]
        }
        let data = json(#"{"count": null}"#)
        var foundation = PathDecoder()
        foundation.route = .foundationOnly
        let (_, expected) = try foundation.decodeWithReport(Page.self, from: data)
        let fast = PathDecoder().decodeOnFastPath(Page.self, from: data)
        #expect(throws: Never.self) { try fast.get() }
        let (_, report) = try PathDecoder().decodeWithReport(Page.self, from: data)
        #expect(report == expected)
        #expect(report.entries.count == 2)
    }
}
