import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  server: { proxy: { '/api': 'http://localhost:8080' } },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    // Before every file (also when files share a worker's modules): jsdom's missing browser APIs.
    setupFiles: ['src/test/setup.ts'],
    // Rendering antd in jsdom is slow on a small CI machine.
    testTimeout: 30_000,
  },
});
