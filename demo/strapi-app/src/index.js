// The fixture app's lifecycle hooks: nothing to do beyond what the plugin itself does.
module.exports = {
  register() {},
  bootstrap() {},
};
