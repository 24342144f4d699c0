import Foundation
import Persistence
import TestSupport
import Testing

/// A contact before and after the schema changes: a case-insensitively indexed name renamed, a
/// nickname with an index of its own dropped, and a unique email key no longer declared.
enum ContactV1 {
    struct Contact: StoredEntity {
        var id: Int64
        var name: String
        var nickname: String?
        var email: String
        static let entityName = "Contact"
        static let name = Field<Contact, String>("name")
        static let nickname = Field<Contact, String?>("nickname")
        static let email = Field<Contact, String>("email")
        static let indexes = [EntityIndex(name, caseInsensitive: true), EntityIndex(nickname)]
        static let uniqueKeys = [UniqueKey(email)]
    }
}

enum ContactV2 {
    struct Contact: StoredEntity {
        var id: Int64
        var fullName: String
        var email: String
        static let entityName = "Contact"
        static let fullName = Field<Contact, String>("fullName")
        static let email = Field<Contact, String>("email")
        static let indexes = [EntityIndex(fullName, caseInsensitive: true)]
    }
}

@Suite struct SchemaChangeTests {
    func seed(_ fixture: StoreFixture) throws -> Data {
        let store = try ObjectStore(at: fixture.url, entities: [ContactV1.Contact.self])
        try store.context.persistAndWait { tx in
            try tx.insert(ContactV1.Contact(id: 1, name: "Émile Zola", nickname: "Z", email: "a@example.com"))
            try tx.insert(ContactV1.Contact(id: 2, name: "alice", nickname: nil, email: "b@example.com"))
        }
        store.close()
        return try Data(contentsOf: fixture.url)
    }

    static let changes = Migration("contacts-v2") { tx in
        try tx.renameProperty("name", to: "fullName", in: ContactV2.Contact.self)
        try tx.dropProperty("nickname", from: ContactV2.Contact.self)
        try tx.dropUniqueKey(["email"], from: ContactV2.Contact.self)
    }

    /// The names of the columns, indexes and fold records the store keeps for the contacts.
    func bookkeeping(_ store: ObjectStore) throws -> (columns: [String], indexes: [String], folds: [String]) {
        try store.context.readAndWait { tx in
            (
                try tx.rows("SELECT name FROM pragma_table_info('Contact') ORDER BY name").compactMap {
                    $0[0].textValue
                },
                try tx.rows(
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Contact' ORDER BY name"
                )
                .compactMap { $0[0].textValue },
                try tx.rows("SELECT key FROM fk_meta WHERE key LIKE 'fold.%' ORDER BY key").compactMap {
                    $0[0].textValue
                }
            )
        }
    }

    @Test func renameDropAndUniqueKeyKeepTheValuesAndTheBookkeeping() throws {
        let fixture = try StoreFixture()
        _ = try seed(fixture)
        let store = try ObjectStore(at: fixture.url, entities: [ContactV2.Contact.self]) { config in
            config.migrations = [Self.changes]
        }
        defer { store.close() }
        let (columns, indexes, folds) = try bookkeeping(store)
        #expect(columns == ["email", "fk_fold_fullName", "id", "fullName"].sorted())
        #expect(indexes == ["fk_index_Contact_fullName_folded"])
        #expect(folds == ["fold.Contact.fk_fold_fullName"])
        // The renamed text keeps its folded copy: case- and accent-insensitive filters and sorts.
        let (found, sorted) = try store.context.readAndWait { tx in
            (
                try tx.fetch(Query<ContactV2.Contact>(where: ContactV2.Contact.fullName.equals("EMILE zola"))),
                try tx.fetch(
                    Query<ContactV2.Contact>(sortedBy: [ContactV2.Contact.fullName.ascending(caseInsensitive: true)]))
            )
        }
        #expect(found.map(\.id) == [1])
        #expect(sorted.map(\.fullName) == ["alice", "Émile Zola"])
        // The unique key is gone: two contacts may share an email now.
        try store.context.persistAndWait { tx in
            try tx.insert(ContactV2.Contact(id: 3, fullName: "Bob", email: "a@example.com"))
        }
        #expect(try store.context.readAndWait { try $0.count(Query<ContactV2.Contact>()) } == 3)
    }

    @Test func anIndexTheEntityNoLongerDeclaresIsDroppedOnOpen() throws {
        let fixture = try StoreFixture()
        _ = try seed(fixture)
        // Only the nickname's index goes: the entity keeps the property but no longer indexes it.
        let store = try ObjectStore(at: fixture.url, entities: [ContactWithoutNicknameIndex.Contact.self])
        defer { store.close() }
        let indexes = try store.context.readAndWait { tx in
            try tx.rows("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Contact' ORDER BY name")
                .compactMap { $0[0].textValue }
        }
        #expect(indexes == ["fk_index_Contact_name_folded", "fk_unique_Contact_email"])
    }

    @Test func aKeptUniqueKeyNamesTheCallThatDropsIt() throws {
        let fixture = try StoreFixture()
        let original = try seed(fixture)
        let result = Result { () throws(PersistenceError) in
            try ObjectStore(at: fixture.url, entities: [ContactWithoutNicknameIndex.Unkeyed.self])
        }
        guard case .failure(let error) = result else {
            Issue.record("a removed unique key must stop the open")
            return
        }
        #expect(error.code == .incompatibleSchema)
        #expect(error.property == "email")
        #expect(error.message.contains("tx.dropUniqueKey([\"email\"], from: Contact.self)"))
        #expect(try Data(contentsOf: fixture.url) == original)
    }

    @Test(arguments: [
        ("rename-missing", "unknownProperty", "surname"), ("rename-taken", "misuse", "email"),
        ("rename-internal", "misuse", "fk_fold_x"), ("drop-identity", "misuse", "id"),
        ("drop-missing", "unknownProperty", "surname"), ("drop-key", "unknownProperty", "name"),
    ])
    func aBadSchemaChangeIsATypedErrorAndLeavesTheFileUntouched(
        change: String, code: String, property: String
    )
        throws
    {
        let fixture = try StoreFixture()
        let original = try seed(fixture)
        let migration = Migration(change) { tx in
            // The first, good change must be rolled back with the bad one.
            try tx.dropProperty("nickname", from: ContactV1.Contact.self)
            switch change {
            case "rename-missing": try tx.renameProperty("surname", to: "familyName", in: ContactV1.Contact.self)
            case "rename-taken": try tx.renameProperty("name", to: "email", in: ContactV1.Contact.self)
            case "rename-internal": try tx.renameProperty("name", to: "fk_fold_x", in: ContactV1.Contact.self)
            case "drop-identity": try tx.dropProperty("id", from: ContactV1.Contact.self)
            case "drop-missing": try tx.dropProperty("surname", from: ContactV1.Contact.self)
            default: try tx.dropUniqueKey(["name"], from: ContactV1.Contact.self)
            }
        }
        let result = Result { () throws(PersistenceError) in
            try ObjectStore(at: fixture.url, entities: [ContactV1.Contact.self]) { $0.migrations = [migration] }
        }
        guard case .failure(let error) = result else {
            Issue.record("\(change) must fail")
            return
        }
        #expect(error.code == .migrationFailed)
        #expect(error.message.contains(code))
        #expect(error.entity == "Contact")
        #expect(error.property == property)
        #expect(try Data(contentsOf: fixture.url) == original, "the file must be left byte-for-byte untouched")
    }

    @Test func aSchemaChangeOutsideAMigrationIsRefused() throws {
        let fixture = try StoreFixture()
        _ = try seed(fixture)
        let store = try ObjectStore(at: fixture.url, entities: [ContactV1.Contact.self])
        defer { store.close() }
        let error = #expect(throws: PersistenceError.self) {
            try store.context.persistAndWait { tx in try tx.dropProperty("nickname", from: ContactV1.Contact.self) }
        }
        #expect(error?.code == .misuse)
        #expect(error?.entity == "Contact")
        let nicknames = try store.context.readAndWait { tx in
            try tx.fetch(Query<ContactV1.Contact>(sortedBy: [ContactV1.Contact.idField.ascending()])).map(\.nickname)
        }
        #expect(nicknames == ["Z", nil])
    }
}

enum ContactWithoutNicknameIndex {
    struct Contact: StoredEntity {
        var id: Int64
        var name: String
        var nickname: String?
        var email: String
        static let entityName = "Contact"
        static let name = Field<Contact, String>("name")
        static let email = Field<Contact, String>("email")
        static let indexes = [EntityIndex(name, caseInsensitive: true)]
        static let uniqueKeys = [UniqueKey(email)]
    }

    struct Unkeyed: StoredEntity {
        var id: Int64
        var name: String
        var nickname: String?
        var email: String
        static let entityName = "Contact"
        static let indexes = [EntityIndex(Field<Unkeyed, String>("name"), caseInsensitive: true)]
    }
}
