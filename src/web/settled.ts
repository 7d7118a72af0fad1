/** A promise as React's `use` reads it: once fulfilled, it carries its value. */
type Tracked<T> = Promise<T> & { status?: "fulfilled"; value?: T };

/**
 * Marks a promise as React's `use` expects once it has fulfilled, so that `use` returns its value at
 * once instead of suspending for a tick. Attached first, this runs before React looks at the promise.
 */
export function settling<T>(promise: Promise<T>): Promise<T> {
  const tracked: Tracked<T> = promise;
  tracked.then(
    (value) => Object.assign(tracked, { status: "fulfilled", value }),
    () => undefined,
  );
  return promise;
}

/** The value of a promise marked by {@link settling}, once it has fulfilled. */
export const fulfilledValue = <T>(promise: Tracked<T> | undefined): T | undefined => promise?.value;
