import { createHash, randomBytes } from 'node:crypto';
import os from 'node:os';

/**
 * Who owns work left on disk or in the metadata store (upload temp files, file-table loads):
 * one owner per app context — in production one per process — named
 * `<host tag>-<pid>-<instance>` (host tag: 8 hex of the host name's SHA-256; instance: 8 random
 * hex). The name is enough to tell, on the same host, whether its process is gone: the pid is
 * not alive, or it is this process's pid under another instance (a previous app in this
 * process, or a process before a restart that got the same pid, as pid 1 in a container does).
 * An owner on another host can only be judged by its heartbeat (see the callers).
 */
export interface Owner {
  host: string;
  pid: number;
  instance: string;
  /** `host-pid-instance`: what files and rows record. */
  key: string;
}

const OWNER_KEY = /^([0-9a-f]{8})-(\d{1,10})-([0-9a-f]{8})$/;

export const hostTag = (hostname: string = os.hostname()) => createHash('sha256').update(hostname).digest('hex').slice(0, 8);

function makeOwner(host: string, pid: number, instance: string): Owner {
  return { host, pid, instance, key: `${host}-${pid}-${instance}` };
}

const owners = new WeakMap<object, Owner>();

/** The owner of an app context (its first call makes it). */
export function ownerOf(ctx: object): Owner {
  let owner = owners.get(ctx);
  if (!owner) {
    owner = makeOwner(hostTag(), process.pid, randomBytes(4).toString('hex'));
    owners.set(ctx, owner);
  }
  return owner;
}

export function parseOwnerKey(key: string | null | undefined): Owner | null {
  const m = key ? OWNER_KEY.exec(key) : null;
  return m ? makeOwner(m[1]!, Number(m[2]), m[3]!) : null;
}

/** Whether a process with this id runs on this host (EPERM: it does, under another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Certainly gone, as far as this host can tell: an owner on this host whose process is not
 * running, or this process under another instance. False for `self`, for owners on other
 * hosts and for unreadable keys: those need another rule (heartbeat age, file age).
 */
export function ownerGoneHere(key: string | null | undefined, self: Owner): boolean {
  const owner = parseOwnerKey(key);
  if (!owner || owner.host !== self.host || owner.key === self.key) return false;
  return owner.pid === self.pid || !processAlive(owner.pid);
}
