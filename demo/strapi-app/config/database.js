// SQLite in a file chosen by the test or demo (Strapi creates a real file even for ':memory:').
module.exports = ({ env }) => ({
  connection: {
    client: 'sqlite',
    connection: { filename: env('DATABASE_FILENAME', '.tmp/data.db') },
    useNullAsDefault: true,
  },
});
