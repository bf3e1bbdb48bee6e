import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import { layersPlugin } from './eslint/layers.js'

// Where code may run is an allow-list per layer, in eslint/layers.js. Raw IPC is refused everywhere but the wrappers.
const noRawIpc = {
  name: 'electron',
  importNames: ['ipcMain', 'ipcRenderer'],
  message: 'Use the IPC wrappers (src/main/electron/ipc.ts, src/preload/index.ts): they validate sender and input.'
}
// Catches `electron.ipcMain` / `require('electron').ipcRenderer`, which an import rule alone would miss.
const noRawIpcMember = {
  selector: 'MemberExpression[property.name=/^ipc(Main|Renderer)$/]',
  message: 'Use the IPC wrappers (src/main/electron/ipc.ts, src/preload/index.ts): they validate sender and input.'
}

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [noRawIpc] }],
      'no-restricted-syntax': ['error', noRawIpcMember]
    }
  },
  {
    // electron-builder loads its hooks with require(): the packaging modules under build/ are CommonJS on purpose.
    files: ['build/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' }
  },
  {
    // Playwright fixtures declare their dependencies by destructuring, and `{}` means "none".
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' }
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/allowed-imports': 'error' }
  },
  {
    files: ['src/main/electron/ipc.ts', 'src/preload/index.ts'],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-syntax': 'off' }
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules
    }
  }
)
