import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

// Where code may run is checked here, not left to convention (see docs/ARCHITECTURE.md).
const NODE_BUILTINS = [
  'assert',
  'buffer',
  'child_process',
  'cluster',
  'crypto',
  'dgram',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'http2',
  'https',
  'net',
  'os',
  'path',
  'process',
  'stream',
  'timers',
  'tls',
  'url',
  'util',
  'worker_threads',
  'zlib'
]
const nodeBuiltins = { group: ['node:*'], message: 'Node built-ins are not available here.' }
const nodeBuiltinPaths = NODE_BUILTINS.map((name) => ({ name, message: 'Node built-ins are not available here.' }))
const noElectron = { regex: '^electron(/|$)', message: 'Only src/main/electron and src/preload may import electron.' }
const noRawIpc = {
  name: 'electron',
  importNames: ['ipcMain', 'ipcRenderer'],
  message: 'Use the IPC wrappers (src/main/electron/ipc.ts, src/preload/index.ts): they validate sender and input.'
}
const pattern = (groups, message) => ({ group: groups, message })
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
    // Playwright fixtures declare their dependencies by destructuring, and `{}` means "none".
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' }
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noRawIpc, ...nodeBuiltinPaths],
          patterns: [
            nodeBuiltins,
            noElectron,
            pattern(
              ['react', 'react-dom', 'zustand', 'keytar', 'undici'],
              'src/shared holds schemas and pure helpers only.'
            ),
            pattern(
              ['**/main/**', '**/renderer/**', '**/preload/**', '**/sandbox/**'],
              'src/shared imports no process code.'
            )
          ]
        }
      ]
    }
  },
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/electron/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noRawIpc],
          patterns: [noElectron, pattern(['**/renderer/**', '**/preload/**'], 'main never imports renderer code.')]
        }
      ]
    }
  },
  {
    files: ['src/main/electron/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noRawIpc],
          patterns: [pattern(['**/renderer/**', '**/preload/**'], 'main never imports renderer code.')]
        }
      ]
    }
  },
  {
    files: ['src/main/electron/ipc.ts', 'src/preload/index.ts'],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-syntax': 'off' }
  },
  {
    files: ['src/sandbox/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noRawIpc],
          patterns: [
            noElectron,
            pattern(['**/main/**', '**/renderer/**', '**/preload/**'], 'The sandbox server stands alone.')
          ]
        }
      ]
    }
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [noRawIpc, ...nodeBuiltinPaths],
          patterns: [
            nodeBuiltins,
            noElectron,
            pattern(
              ['**/main/**', '**/sandbox/**', '**/preload/**', 'keytar', 'undici'],
              'The renderer talks to main only through window.paydesk.'
            )
          ]
        }
      ]
    }
  },
  {
    files: ['src/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltinPaths,
          patterns: [
            nodeBuiltins,
            pattern(['**/main/**', '**/renderer/**', '**/sandbox/**'], 'Preload only bridges the contract.')
          ]
        }
      ]
    }
  }
)
