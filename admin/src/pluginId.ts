// The plugin's id in the admin panel: its route (`plugins/ratelimit`), translation keys and the
// prefix of its RBAC actions, the same name as the server plugin.
export const PLUGIN_ID = 'ratelimit';

export const PERMISSIONS = {
  read: [{ action: `plugin::${PLUGIN_ID}.read`, subject: null }],
  reset: [{ action: `plugin::${PLUGIN_ID}.reset`, subject: null }],
  configure: [{ action: `plugin::${PLUGIN_ID}.configure`, subject: null }],
};
