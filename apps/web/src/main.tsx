import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from './app/query-client.ts';
import { createAppRouter } from './app/router.tsx';
import './app/styles.css';

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
