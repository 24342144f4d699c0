/// <reference path="../pb_data/types.d.ts" />
// Files beside records: the `photos` collection of the file interop tests (public rules; `image`
// one PNG or JPEG of at most 1 MB, `pages` up to 5 files of any type) and the `cover` of
// booklab's books (one image of at most 2 MB).
migrate((app) => {
  app.save(new Collection({
    type: "base",
    name: "photos",
    listRule: "",
    viewRule: "",
    createRule: "",
    updateRule: "",
    deleteRule: "",
    fields: [
      { name: "title", type: "text" },
      { name: "image", type: "file", maxSelect: 1, maxSize: 1048576, mimeTypes: ["image/png", "image/jpeg"] },
      { name: "pages", type: "file", maxSelect: 5, maxSize: 1048576 },
      { name: "created", type: "autodate", onCreate: true, onUpdate: false },
      { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
    ],
    indexes: ["CREATE INDEX `idx_photos_updated_id` ON `photos` (`updated`, `id`)"],
  }));
  for (const name of ["books", "private_books"]) {
    const books = app.findCollectionByNameOrId(name);
    books.fields.add(new FileField({
      name: "cover",
      maxSelect: 1,
      maxSize: 2097152,
      mimeTypes: ["image/png", "image/jpeg", "image/gif", "image/webp"],
    }));
    app.save(books);
  }
}, (app) => {
  for (const name of ["books", "private_books"]) {
    const books = app.findCollectionByNameOrId(name);
    books.fields.removeByName("cover");
    app.save(books);
  }
  try {
    app.delete(app.findCollectionByNameOrId("photos"));
  } catch (_) {
    // already gone
  }
});
