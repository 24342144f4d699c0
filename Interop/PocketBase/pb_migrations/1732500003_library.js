/// <reference path="../pb_data/types.d.ts" />
// The `authors` and `novels` collections of the Sync article's "Syncing related collections":
// a novel's `author` is a required relation to `authors`, without cascade, so PocketBase refuses
// a novel whose author it does not have and an author that novels still refer to. Both need a
// signed-in user (the interop tests sign in, and expire the token mid-pull).
migrate((app) => {
  const rule = '@request.auth.id != ""';
  const authors = new Collection({
    type: "base",
    name: "authors",
    listRule: rule,
    viewRule: rule,
    createRule: rule,
    updateRule: rule,
    deleteRule: rule,
    fields: [
      { name: "name", type: "text", required: true, max: 40 },
      { name: "created", type: "autodate", onCreate: true, onUpdate: false },
      { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
    ],
    indexes: ["CREATE INDEX `idx_authors_updated_id` ON `authors` (`updated`, `id`)"],
  });
  app.save(authors);
  app.save(new Collection({
    type: "base",
    name: "novels",
    listRule: rule,
    viewRule: rule,
    createRule: rule,
    updateRule: rule,
    deleteRule: rule,
    fields: [
      { name: "title", type: "text" },
      { name: "author", type: "relation", collectionId: authors.id, maxSelect: 1, required: true, cascadeDelete: false },
      { name: "created", type: "autodate", onCreate: true, onUpdate: false },
      { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
    ],
    indexes: ["CREATE INDEX `idx_novels_updated_id` ON `novels` (`updated`, `id`)"],
  }));
}, (app) => {
  for (const name of ["novels", "authors"]) {
    try {
      app.delete(app.findCollectionByNameOrId(name));
    } catch (_) {
      // already gone
    }
  }
});
