// Translation ids of this plugin are namespaced by its id, as Strapi's registerTrads expects.
import { PLUGIN_ID } from '../pluginId';

export const getTranslation = (id: string): string => `${PLUGIN_ID}.${id}`;
