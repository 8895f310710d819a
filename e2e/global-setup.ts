import { ensureChromium } from './harness.ts';

export default function setup(): void {
  ensureChromium();
}
