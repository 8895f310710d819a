/** jsdom lacks a few browser APIs antd relies on. Import first in component tests. */
import { vi } from 'vitest';

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    }),
  });
}

if (!('ResizeObserver' in window)) {
  class ResizeObserver {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserver });
}

// antd measures scrollbars through getComputedStyle with a pseudo element, which jsdom rejects.
const original = window.getComputedStyle.bind(window);
window.getComputedStyle = (el: Element) => original(el);

// Rendering antd in jsdom is slow on a small CI machine.
vi.setConfig({ testTimeout: 30_000 });
