import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// The base styles first, so each screen's own CSS can refine them.
import './styles.css';
import { App } from './App';
import { createQueryClient } from './queryClient';

const container = document.getElementById('root');
if (container === null) throw new Error('renderer/index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={createQueryClient()}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
