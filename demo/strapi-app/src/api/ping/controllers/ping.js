// Answers `{ ok: true }` (and the id when the route has one).
module.exports = {
  find(ctx) {
    ctx.body = { ok: true, id: ctx.params.id ?? null };
  },
};
