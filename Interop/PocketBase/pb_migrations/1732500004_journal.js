/// <reference path="../pb_data/types.d.ts" />
// The `journal` collection of the Sync article's "Several accounts on one device": each entry
// belongs to the user who wrote it (`owner`, a relation to `users`), and each user lists, reads
// and changes only their own entries (per-user rules). A create must name its writer as owner.
migrate((app) => {
  const users = app.findCollectionByNameOrId("users");
  const own = "owner = @request.auth.id";
  app.save(new Collection({
    type: "base",
    name: "journal",
    listRule: own,
    viewRule: own,
    createRule: '@request.auth.id != "" && @request.body.owner = @request.auth.id',
    updateRule: own + ' && (@request.body.owner:isset = false || @request.body.owner = @request.auth.id)',
    deleteRule: own,
    fields: [
      { name: "title", type: "text" },
      { name: "owner", type: "relation", collectionId: users.id, maxSelect: 1, required: true },
      { name: "created", type: "autodate", onCreate: true, onUpdate: false },
      { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
    ],
    indexes: ["CREATE INDEX `idx_journal_updated_id` ON `journal` (`updated`, `id`)"],
  }));
}, (app) => {
  try {
    app.delete(app.findCollectionByNameOrId("journal"));
  } catch (_) {
    // already gone
  }
});
