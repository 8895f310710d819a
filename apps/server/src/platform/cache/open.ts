import type { MetadataStore } from '../db/store.ts';
import { LocalCacheBus, PostgresCacheBus, type CacheBus } from './bus.ts';
import { attachBus, registerBus } from './coherent.ts';

type Log = { warn(obj: object, msg: string): void };

/**
 * The bus of a process: LISTEN/NOTIFY on a real PostgreSQL store, in-process on PGlite (one
 * process only). Closing it also removes it from publishEverywhere.
 */
export async function openCacheBus(
  store: Pick<MetadataStore, 'connectionString' | 'executeSql' | 'db'>,
  log?: Log,
  options: { pollMs?: number } = {},
): Promise<CacheBus> {
  const bus: CacheBus = store.connectionString
    ? await PostgresCacheBus.open({ connectionString: store.connectionString, executeSql: store.executeSql, log, pollMs: options.pollMs })
    : new LocalCacheBus();
  const unregister = registerBus(bus);
  const detach = attachBus(store.db, bus);
  const close = bus.close.bind(bus);
  bus.close = async () => {
    unregister();
    detach();
    await close();
  };
  return bus;
}
