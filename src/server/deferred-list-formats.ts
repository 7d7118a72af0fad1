// oidc-provider makes two Intl.ListFormat objects as its module loads, to word a few error
// descriptions. The first Intl formatter a process makes maps in ICU's locale data and builds its
// tables, some 5 MB of resident memory, which a worker that never words such an error would hold for
// nothing. While the server's modules load, a list format made then is made on its first use instead.

type ListFormatArguments = ConstructorParameters<typeof Intl.ListFormat>;

const NativeListFormat = Intl.ListFormat;

/** Intl.ListFormat's methods, on a formatter made when one of them is first called. */
class DeferredListFormat {
  readonly #arguments: ListFormatArguments;
  #made: Intl.ListFormat | undefined;

  constructor(...args: ListFormatArguments) {
    this.#arguments = args;
  }

  #formatter(): Intl.ListFormat {
    return (this.#made ??= new NativeListFormat(...this.#arguments));
  }

  format(list: Iterable<string>): string {
    return this.#formatter().format(list);
  }

  formatToParts(list: Iterable<string>): ReturnType<Intl.ListFormat["formatToParts"]> {
    return this.#formatter().formatToParts(list);
  }

  resolvedOptions(): Intl.ResolvedListFormatOptions {
    return this.#formatter().resolvedOptions();
  }
}

/** Runs `load` (an import) with list formats made on first use, and restores Intl.ListFormat after. */
export async function withDeferredListFormats<T>(load: () => Promise<T>): Promise<T> {
  // Intl's constructors are writable properties, though TypeScript's types say read-only.
  const replace = (value: unknown) => Object.defineProperty(Intl, "ListFormat", { value });
  replace(DeferredListFormat);
  try {
    return await load();
  } finally {
    replace(NativeListFormat);
  }
}
