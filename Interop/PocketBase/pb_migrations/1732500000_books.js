/// <reference path="../pb_data/types.d.ts" />
// PocketBase v0.40.x migration: creates the `books` (public rules) and
// `private_books` (signed-in users only) base collections used by the
// interop tests. The default `users` auth collection already exists on a
// fresh data dir, so it is not created here.
//
// Rule semantics: "" = anyone (guest included); null = superusers only.
// `created`/`updated` are explicit autodate fields: collections created
// without them have no timestamps, and the keyset pull sorts on `updated,id`.

function bookFields() {
  return [
    { name: "volumeId", type: "text" },
    { name: "title", type: "text" },
    { name: "authors", type: "json" },
    { name: "isbn13", type: "text" },
    { name: "rating", type: "number" },
    { name: "addedAt", type: "date" },
    { name: "deleted", type: "bool" },
    { name: "created", type: "autodate", onCreate: true, onUpdate: false },
    { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
  ];
}

function bookCollection(name, rule) {
  return new Collection({
    type: "base",
    name: name,
    listRule: rule,
    viewRule: rule,
    createRule: rule,
    updateRule: rule,
    deleteRule: rule,
    fields: bookFields(),
    indexes: [
      "CREATE INDEX `idx_" + name + "_updated_id` ON `" + name + "` (`updated`, `id`)",
    ],
  });
}

migrate((app) => {
  app.save(bookCollection("books", ""));
  app.save(bookCollection("private_books", '@request.auth.id != ""'));
}, (app) => {
  for (const name of ["private_books", "books"]) {
    try {
      app.delete(app.findCollectionByNameOrId(name));
    } catch (_) {
      // already gone
    }
  }
});
