// Fixed secrets: this app only ever runs on loopback inside tests and the demo.
module.exports = () => ({
  auth: { secret: 'fixture-admin-jwt-secret' },
  apiToken: { salt: 'fixture-api-token-salt' },
  transfer: { token: { salt: 'fixture-transfer-token-salt' } },
  secrets: { encryptionKey: 'fixture-encryption-key-0123456789' },
  flags: { nps: false, promoteEE: false },
});
