import Foundation

/// Learns an entity's columns by running its `init(from:)`: every key it asks for becomes a
/// column whose kind comes from the type it asks for (``ValueKind/of(_:)``), never from a
/// sample value's encoding; keys asked for with `decodeIfPresent` (the synthesized code for
/// `Optional` properties) are nullable. Each request is answered with a throwaway sample so the
/// initializer runs to its end.
final class SchemaProbe: Decoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    var columns: [ColumnSchema] = []
    var seen: Set<String> = []
    /// Keys the entity asked `decodeNil(forKey:)` about: the default `decodeIfPresent` does
    /// that for `Optional` properties before decoding.
    var nilChecked: Set<String> = []
    var failure: PersistenceError?
    let entityName: String

    init(entityName: String) { self.entityName = entityName }

    static func columns<E: StoredEntity>(of type: E.Type) throws(PersistenceError) -> [ColumnSchema] {
        let probe = SchemaProbe(entityName: E.entityName)
        do {
            _ = try E(from: probe)
        } catch let error as PersistenceError {
            throw error
        } catch {
            if let failure = probe.failure { throw failure }
            throw PersistenceError(
                .unsupportedValue,
                "The store could not learn \(E.entityName)'s columns by decoding a sample value: \(error). "
                    + "Its init(from:) must accept any value for each property.",
                entity: E.entityName)
        }
        if let failure = probe.failure { throw failure }
        guard !probe.columns.isEmpty else {
            throw PersistenceError(
                .unsupportedValue, "\(E.entityName) decodes no properties, so it has nothing to store.",
                entity: E.entityName)
        }
        return probe.columns
    }

    func record<T: Decodable>(_ name: String, _ type: T.Type, optional: Bool, firstProfile: Bool) {
        guard seen.insert(name).inserted else { return }
        var (kind, isRaw) = ValueKind.of(T.self)
        // A RawRepresentable type whose Codable writes something else than its raw value (more
        // state, another spelling) is kept by its Codable, as JSON, so nothing of it is lost.
        if isRaw, !SingleValueCapture.encodesItsRawValue(T.self) { (kind, isRaw) = (.json, false) }
        // How format 1 held it: it sampled the type (first case, or defaults) and stored what the
        // sample encoded to; a type it could not sample was JSON (when optional) or refused.
        let legacy: LegacyStorage =
            switch kind {
            case .date: isRaw ? .same : .date1970
            case .json: firstProfile ? LegacyStorage.of(T.self) : .json
            default: isRaw && !firstProfile ? .json : .same
            }
        var column = ColumnSchema(
            name: name, kind: kind, isRaw: isRaw, isOptional: optional, swiftType: String(describing: T.self),
            legacy: legacy)
        if kind == .integer, !isRaw, let integer = T.self as? any FixedWidthInteger.Type {
            column.integerRange = Self.range(of: integer)
        }
        if isRaw { column.raw = RawAccess.of(T.self, kind: kind) }
        columns.append(column)
    }

    /// The values of an integer type that fit in 64 signed bits, or `nil` for `Int64` itself.
    static func range<I: FixedWidthInteger>(of type: I.Type) -> ClosedRange<Int64>? {
        let low = Int64(clamping: I.min)
        let high = Int64(clamping: I.max)
        return low == .min && high == .max ? nil : low...high
    }

    func unsupported(_ detail: String) -> PersistenceError {
        PersistenceError(
            .unsupportedValue,
            "\(entityName) \(detail). An entity must decode each stored property from a keyed container "
                + "with decode(_:forKey:) or decodeIfPresent(_:forKey:).",
            entity: entityName)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbeKeyedContainer<Key>(probe: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let error = unsupported("decodes itself from an unkeyed container")
        failure = error
        throw error
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        let error = unsupported("decodes itself from a single value")
        failure = error
        throw error
    }
}

struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let probe: SchemaProbe
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool {
        probe.nilChecked.insert(key.stringValue)
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let name = key.stringValue
        guard let (value, firstProfile) = SampleValue.make(T.self) else {
            probe.record(name, T.self, optional: probe.nilChecked.contains(name), firstProfile: false)
            let error = PersistenceError(
                .unsupportedValue,
                "The store cannot make a sample \(T.self) to run \(probe.entityName).init(from:) past '\(name)' "
                    + "and learn the properties after it: every sample was refused by \(T.self).init(from:). "
                    + "Declare '\(name)' Optional (decoded with decodeIfPresent), or let \(T.self).init(from:) "
                    + "accept an empty string or zero.",
                entity: probe.entityName, property: name)
            probe.failure = error
            throw error
        }
        probe.record(name, T.self, optional: probe.nilChecked.contains(name), firstProfile: firstProfile)
        return value
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        // A sample rather than nil: wrappers whose decode(_:forKey:) overload calls decodeIfPresent
        // (such as Decoding's `@LosslessValue`) throw on nil when they have no fallback.
        let sample = SampleValue.make(T.self)
        probe.record(key.stringValue, T.self, optional: true, firstProfile: sample?.firstProfile ?? false)
        return sample?.value
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let error = probe.unsupported("reads a nested container for '\(key.stringValue)'")
        probe.failure = error
        throw error
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let error = probe.unsupported("reads a nested unkeyed container for '\(key.stringValue)'")
        probe.failure = error
        throw error
    }

    func superDecoder() throws -> any Decoder {
        let error = probe.unsupported("uses superDecoder()")
        probe.failure = error
        throw error
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        let error = probe.unsupported("uses superDecoder(forKey: \(key.stringValue))")
        probe.failure = error
        throw error
    }
}
