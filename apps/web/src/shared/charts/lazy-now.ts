import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * Lazy components that do not suspend once their code is there (issue 26, the page's own time).
 *
 * React.lazy suspends on a component's first render even when its module has long been loaded
 * (the import's promise calls back only in a later microtask), so its boundary shows the fallback,
 * and React then holds the loaded content back for up to 300 ms after that fallback appeared
 * (its Suspense throttle). The board preview's trace showed two such idle waits of ≈ 250 ms
 * before the board rendered, and each chart waited behind its own "loading" once more. A loader
 * made here remembers its module; a lazy component made from it renders at once when it is there.
 */

/** A module loader that keeps what it loaded. */
export interface Loader<M> {
  (): Promise<M>;
  /** The module, once loaded. */
  loaded(): M | undefined;
}

export function loader<M>(load: () => Promise<M>): Loader<M> {
  let module: M | undefined;
  let pending: Promise<M> | undefined;
  const start = () =>
    (pending ??= load().then(
      (m) => (module = m),
      (error: unknown) => {
        // A failed load is tried again by the next caller (the route's error page offers 刷新).
        pending = undefined;
        throw error;
      },
    ));
  return Object.assign(start, { loaded: () => module });
}

/** A thenable that calls back at once: React.lazy then resolves without suspending. */
function settled<T>(value: T): Promise<T> {
  return { then: (resolve: (v: T) => unknown) => resolve(value) } as unknown as Promise<T>;
}

/** React.lazy over `from`, taking the component `pick` names; renders at once once the module is loaded. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound
export function lazyFrom<M, C extends ComponentType<any>>(from: Loader<M>, pick: (m: M) => C): LazyExoticComponent<C> {
  return lazy(() => {
    const module = from.loaded();
    return module ? settled({ default: pick(module) }) : from().then((m) => ({ default: pick(m) }));
  });
}
