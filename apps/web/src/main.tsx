import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from './app/query-client.ts';
import { createAppRouter } from './app/router.tsx';
import './app/styles.css';

/**
 * The router, the root and the first render, in a task after the one that evaluated the entry's
 * modules: together they held the main thread for one long task (issue 26, Lighthouse's total
 * blocking time on the share link; docs/web-performance.md), split they are two short ones.
 */
function start() {
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient);

  // antd's providers wrap every page but /login inside the router (app/shell.tsx): the entry has no antd.
  // The first render as a transition: React then renders in slices of a few milliseconds, yielding to
  // the browser between them, instead of one long task that delays input (issue 26: Lighthouse's
  // total blocking time on /login). Until it commits, index.html's splash stays on screen.
  const root = createRoot(document.getElementById('root')!);
  startTransition(() => {
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </StrictMode>,
    );
  });
}

// A message, not a timer: a page opened in a background tab would wait for the next second's timers.
const nextTask = new MessageChannel();
nextTask.port1.onmessage = start;
nextTask.port2.postMessage(null);
