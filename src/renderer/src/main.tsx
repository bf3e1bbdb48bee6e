import { QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { queryClient } from './data/query-client'
import { bootAppearance, useAppearance } from './data/appearance'
// The stylesheets in cascade order: a later file wins over an earlier one at equal specificity.
import './styles/tokens.css'
import './styles/shell.css'
import './styles/content.css'
import './styles/overlays.css'
import './styles/list-detail.css'
import './styles/views.css'

// Before anything renders: the theme is on <html> for the first paint.
void bootAppearance()

/**
 * Times are worded once, in format/time.ts, in the zone chosen in Settings: a new choice renders the page again from
 * its root (lists and filters live in stores and the query cache, so nothing the operator set is lost).
 */
function Root() {
  const timeZone = useAppearance().timeZone
  return <App key={timeZone} />
}

const root = document.getElementById('root')
if (!root) throw new Error('Paydesk: #root is missing from index.html')
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <Root />
    </QueryClientProvider>
  </StrictMode>
)
