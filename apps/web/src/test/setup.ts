/** jsdom lacks a few browser APIs antd relies on (setupFiles: runs before every web test file). */
import { vi } from 'vitest';
import { installFastStyles } from './fast-styles.ts';

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

// antd measures scrollbars through getComputedStyle with a pseudo element, which jsdom rejects
// (the pseudo element is dropped); single properties take a fast path (fast-styles.ts).
installFastStyles(window);
