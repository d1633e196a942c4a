// The admin entry of the ratelimit plugin: a menu link to the usage page (shown to roles with the
// read action) and the plugin's translations.
import { ChartPie } from '@strapi/icons';
import type { StrapiApp } from '@strapi/strapi/admin';
import { PERMISSIONS, PLUGIN_ID } from './pluginId';
import { getTranslation } from './utils/getTranslation';

type Messages = Record<string, string>;

/**
 * One static import per locale file. A template-literal `import(`./translations/${locale}.json`)`
 * is left as it is by Vite for code under node_modules (where an installed plugin lives), so the
 * built admin asked the server for a file it does not have and every page load logged an error.
 */
const TRANSLATIONS: Record<string, () => Promise<{ default: Messages }>> = {
  en: () => import('./translations/en.json'),
};

function prefixed(messages: Messages): Messages {
  return Object.fromEntries(Object.entries(messages).map(([key, value]) => [getTranslation(key), value]));
}

export default {
  register(app: StrapiApp): void {
    app.addMenuLink({
      to: `plugins/${PLUGIN_ID}`,
      icon: ChartPie,
      intlLabel: { id: getTranslation('plugin.name'), defaultMessage: 'Rate limit' },
      permissions: PERMISSIONS.read,
      Component: () => import('./pages/UsagePage'),
    });
    app.registerPlugin({ id: PLUGIN_ID, name: PLUGIN_ID });
  },

  async registerTrads({ locales }: { locales: string[] }): Promise<Array<{ data: Messages; locale: string }>> {
    return Promise.all(
      locales.map(async (locale) => {
        // A locale without a file falls back to the English default messages.
        const load = Object.hasOwn(TRANSLATIONS, locale) ? TRANSLATIONS[locale] : undefined;
        return { data: load ? prefixed((await load()).default) : {}, locale };
      }),
    );
  },
};
