/// <reference path="../pb_data/types.d.ts" />
// PocketBase v0.40.x migration: turns the batch API (`POST /api/batch`) on, so
// the interop suite's syncs send their writes in batches (booklab falls back
// to one request a write on a server where batches are off, the default).

migrate((app) => {
  const settings = app.settings();
  settings.batch.enabled = true;
  settings.batch.maxRequests = 50;
  app.save(settings);
}, (app) => {
  const settings = app.settings();
  settings.batch.enabled = false;
  app.save(settings);
});
