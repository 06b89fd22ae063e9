import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { queryClient } from './api/query-client.ts';
import { metaQuery } from './api/use-meta.ts';
import { App } from './App.tsx';
import './i18n/index.ts';
import './styles/global.css';

// Asked while the first page's code loads, so nothing that depends on it shifts the page later.
void queryClient.prefetchQuery(metaQuery);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
