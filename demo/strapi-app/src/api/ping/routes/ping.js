// GET /api/ping and POST /api/ping: public routes with no database work, to measure the limiter alone.
module.exports = {
  routes: [
    { method: 'GET', path: '/ping', handler: 'ping.find', config: { auth: false } },
    { method: 'POST', path: '/ping', handler: 'ping.find', config: { auth: false } },
    { method: 'GET', path: '/ping/:id', handler: 'ping.find', config: { auth: false } },
  ],
};
