import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppContext } from '../../context.ts';

/**
 * Deployment: every BPMN file in processes/ is a process definition. At first use in a process the
 * files are compared with the latest deployed version of their key; a changed file becomes version
 * n+1 (processDefinitionId key:version:hash, Flowable's shape). Running instances keep the version
 * they started on. Two processes deploying at once agree: the id is a function of the content and
 * the insert ignores a row that already exists.
 */

const PROCESS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'processes');

interface ProcessFile {
  key: string;
  name: string;
  xml: string;
  hash: string;
}

function readProcessFiles(): ProcessFile[] {
  return fs
    .readdirSync(PROCESS_DIR)
    .filter((file) => file.endsWith('.bpmn'))
    .sort()
    .map((file) => {
      const xml = fs.readFileSync(path.join(PROCESS_DIR, file), 'utf8');
      const processTag = /<(?:bpmn:)?process\b[^>]*>/.exec(xml)?.[0] ?? '';
      const key = /\bid="([^"]+)"/.exec(processTag)?.[1];
      const name = /\bname="([^"]+)"/.exec(processTag)?.[1];
      if (!key || !name) throw new Error(`${file}: the executable process needs an id and a name`);
      return { key, name, xml, hash: createHash('sha256').update(xml).digest('hex') };
    });
}

async function deployAll(ctx: AppContext): Promise<void> {
  for (const file of readProcessFiles()) {
    const latest = await ctx.db
      .selectFrom('workflowDefinition')
      .select(['version', 'contentHash'])
      .where('processKey', '=', file.key)
      .orderBy('version', 'desc')
      .executeTakeFirst();
    if (latest?.contentHash === file.hash) continue;
    const version = (latest?.version ?? 0) + 1;
    await ctx.db
      .insertInto('workflowDefinition')
      .values({ id: `${file.key}:${version}:${file.hash.slice(0, 12)}`, processKey: file.key, name: file.name, version, xml: file.xml, contentHash: file.hash })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

const deployed = new WeakMap<AppContext, Promise<void>>();

/** Deploys once per application context (a failure is retried at the next call). */
export function ensureDeployed(ctx: AppContext): Promise<void> {
  let done = deployed.get(ctx);
  if (!done) {
    done = deployAll(ctx).catch((error: unknown) => {
      deployed.delete(ctx);
      throw error;
    });
    deployed.set(ctx, done);
  }
  return done;
}
