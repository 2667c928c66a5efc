// The layering rule (eslint/layers.js) says no to each wall's crossing and yes to what the
// architecture allows, for a file at the path a newcomer would put it.
import path from 'node:path';

import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import { layers } from '../../../eslint/layers.js';

const root = path.resolve(import.meta.dirname, '../../..');
const linter = new Linter({ configType: 'flat' });

function lint(file: string, source: string): string[] {
  return linter
    .verify(
      source,
      [
        {
          files: ['**/*.ts', '**/*.tsx'],
          languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
          plugins: { layers },
          rules: { 'layers/walls': 'error' },
        },
      ],
      path.join(root, file),
    )
    .map((m) => m.message);
}

describe('the layering rule', () => {
  it.each([
    ['main/gateway/client.ts', "import { x } from '../store/sqlite/journal';", 'leaf of main'],
    ['main/keys/pem.ts', "import { x } from '../gateway/request';", 'leaf of main'],
    ['main/secrets/store.ts', "export { x } from '../services/keys';", 'leaf of main'],
    [
      'main/store/sqlite/journal.ts',
      "import { x } from '../../services/orders/orders';",
      'never imports services',
    ],
    [
      'main/store/journal/rules.ts',
      "import { x } from '../sqlite/journal';",
      'never imports an adapter',
    ],
    ['main/sandbox/server.ts', "import { x } from '../services/app';", 'never imports services'],
    ['renderer/src/App.tsx', "import { x } from '../../main/services/app';", 'never import main'],
    ['preload/index.ts', "import { x } from '../main/bridge';", 'never import main'],
    ['common/money.ts', "import { x } from '../renderer/src/api';", 'imports none of them'],
    [
      'renderer/src/screens/keys/KeysScreen.tsx',
      "const m = import('../journal/JournalScreen');",
      'never imports another screen',
    ],
  ])('%s: %s is refused', (file, source, words) => {
    const messages = lint(file, source);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(words);
  });

  it.each([
    ['main/gateway/client.ts', "import { x } from './request';"],
    ['main/gateway/amount.ts', "import { x } from '../../common/money';"],
    ['main/store/sqlite/journal.ts', "import { x } from '../journal/rules';"],
    ['main/store/sqlite/profiles.ts', "import { x } from '../../keys/environment';"],
    ['main/services/orders/orders.ts', "import { x } from '../../store/journal/port';"],
    [
      'renderer/src/screens/keys/KeysScreen.tsx',
      "import { x } from '../../components/Fingerprint';",
    ],
    ['renderer/src/screens/orders/ActionPanel.tsx', "import { x } from './hooks';"],
    ['preload/index.ts', "import { x } from '../common/contract';"],
    ['main/index.ts', "import x from 'electron';"],
  ])('%s: %s is allowed', (file, source) => {
    expect(lint(file, source)).toEqual([]);
  });
});
