import { EventEmitter } from 'node:events';
import type { Engine as BpmnEngine } from 'bpmn-engine';

/** bpmn-engine is loaded with the first process step, not at the server's start (≈ 15 MiB resident). */
const engineClass = async () => (await import('bpmn-engine')).Engine;

/**
 * The BPMN engine (bpmn-engine + bpmn-elements) behind one call per step: start an instance, or
 * recover it from the saved state and signal its waiting user task. Nothing is kept in memory
 * between steps — each step runs from the state in the store and hands back the new state, so any
 * process can take the next step and a restart loses nothing.
 */

export interface WaitingActivity {
  id: string;
  name: string;
}

export interface EngineStep {
  /** engine.getState(), serialisable. */
  state: unknown;
  ended: boolean;
  /** User tasks waiting for a person after this step (empty once the process ended). */
  waiting: WaitingActivity[];
  /** Activities and sequence flows completed during this step, in order. */
  finished: string[];
  /** The end event reached, when the process ended. */
  endEventId: string | null;
}

/** A user task's outcome; the process's gateways read it as environment.output[taskId]. */
export type TaskOutput = Record<string, unknown>;

interface ElementApi {
  id: string;
  type: string;
  name?: string;
  content: { output?: unknown };
  environment: { output: Record<string, unknown> };
}

function track(listener: EventEmitter) {
  const finished: string[] = [];
  const waiting = new Map<string, WaitingActivity>();
  let endEventId: string | null = null;
  listener.on('activity.wait', (api: ElementApi) => waiting.set(api.id, { id: api.id, name: api.name ?? api.id }));
  listener.on('activity.end', (api: ElementApi) => {
    waiting.delete(api.id);
    finished.push(api.id);
    if (api.type === 'bpmn:EndEvent') endEventId = api.id;
    // Gateways decide on what the task produced (leave.bpmn: environment.output.approverTask.pass).
    if (api.type === 'bpmn:UserTask' && api.content.output) api.environment.output[api.id] = api.content.output;
  });
  listener.on('flow.take', (flow: { id: string }) => finished.push(flow.id));
  return { finished, waiting, endEventId: () => endEventId };
}

/** Runs until the engine is idle or waiting for a person (user tasks, here the only wait states). */
async function settle(engine: BpmnEngine, tracked: ReturnType<typeof track>): Promise<EngineStep> {
  // Signals run synchronously through bpmn-elements' broker; a macrotask turn lets any queued step finish.
  await new Promise((resolve) => setImmediate(resolve));
  const state = await engine.getState();
  const ended = state.state === 'idle' && tracked.waiting.size === 0;
  return {
    state: JSON.parse(JSON.stringify(state)) as unknown,
    ended,
    waiting: [...tracked.waiting.values()],
    finished: tracked.finished,
    endEventId: tracked.endEventId(),
  };
}

export async function startProcess(xml: string, name: string, variables: Record<string, unknown>): Promise<EngineStep> {
  const Engine = await engineClass();
  const engine = new Engine({ name, source: xml });
  const listener = new EventEmitter();
  const tracked = track(listener);
  const failed = engine.waitFor('error');
  await Promise.race([engine.execute({ listener, variables }), failed]);
  const step = await settle(engine, tracked);
  await engine.stop();
  return step;
}

/** Recovers the instance and completes its waiting `activityId` with `output`. */
export async function signalTask(state: unknown, name: string, activityId: string, output: TaskOutput): Promise<EngineStep> {
  const Engine = await engineClass();
  const engine = new Engine({ name }).recover(state);
  const listener = new EventEmitter();
  const tracked = track(listener);
  const execution = await engine.resume({ listener });
  for (const postponed of execution.getPostponed()) tracked.waiting.set(postponed.id, { id: postponed.id, name: postponed.name ?? postponed.id });
  if (!tracked.waiting.has(activityId)) throw new Error(`activity ${activityId} is not waiting`);
  execution.signal({ ...output, id: activityId });
  const step = await settle(engine, tracked);
  if (!step.ended) await engine.stop();
  return step;
}

/** The user tasks of a waiting instance, read from its state (no execution). */
export async function waitingTasks(state: unknown, name: string): Promise<WaitingActivity[]> {
  const Engine = await engineClass();
  const engine = new Engine({ name }).recover(state);
  const execution = await engine.resume({ listener: new EventEmitter() });
  const waiting = execution.getPostponed().map((a) => ({ id: a.id, name: a.name ?? a.id }));
  await engine.stop();
  return waiting;
}
