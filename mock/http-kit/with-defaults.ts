// A server's settings: its defaults object with the options given laid over it. An option passed as
// `undefined` (a CLI flag not given) keeps its default instead of erasing it.
export type Settings<D, O> = Omit<O, keyof D> & { readonly [K in keyof D]: K extends keyof O ? Exclude<O[K], undefined> : D[K] };

export function withDefaults<D extends object, O extends object>(defaults: D, options: O): Settings<D, O> {
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return { ...defaults, ...given } as Settings<D, O>;
}
