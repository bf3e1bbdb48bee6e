import { QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { queryClient } from './data/query-client'
// The stylesheets in cascade order: a later file wins over an earlier one at equal specificity.
import './styles/tokens.css'
import './styles/shell.css'
import './styles/content.css'
import './styles/overlays.css'
import './styles/list-detail.css'
import './styles/views.css'

const root = document.getElementById('root')
if (!root) throw new Error('Paydesk: #root is missing from index.html')
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>
)
