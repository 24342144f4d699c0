/// <reference path="../pb_data/types.d.ts" />
// The `notes` collection (public rules) of the Sync article's shortest example, synced with
// `RemoteCollection.pocketBase`: a title and PocketBase's own timestamps.
migrate((app) => {
  app.save(new Collection({
    type: "base",
    name: "notes",
    listRule: "",
    viewRule: "",
    createRule: "",
    updateRule: "",
    deleteRule: "",
    fields: [
      { name: "title", type: "text" },
      { name: "created", type: "autodate", onCreate: true, onUpdate: false },
      { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
    ],
    indexes: ["CREATE INDEX `idx_notes_updated_id` ON `notes` (`updated`, `id`)"],
  }));
}, (app) => {
  try {
    app.delete(app.findCollectionByNameOrId("notes"));
  } catch (_) {
    // already gone
  }
});
