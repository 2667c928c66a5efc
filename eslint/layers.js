// The layering of docs/architecture.md as a lint rule: every relative import is resolved to the
// file it names, and the rooms of the importer and the imported are checked against the table
// below. A new import that crosses a wall fails `npm run lint` with the sentence of its row.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/**
 * Each row: which files it governs (a test on the importer's path from the repo's root), and
 * what such a file may not import (a test on the imported path, given the importer's match).
 */
const WALLS = [
  {
    from: /^main\/(gateway|keys|secrets)\//,
    forbids: (to, m) => to.startsWith('main/') && !to.startsWith(`main/${m[1]}/`),
    why: (m) => `main/${m[1]} is a leaf of main: it imports nothing else of main.`,
  },
  {
    from: /^main\/store\//,
    forbids: (to) => /^main\/(services|sandbox)\//.test(to) || /^main\/[^/]+$/.test(to),
    why: () => 'The store never imports services, the sandbox or the app around it.',
  },
  {
    from: /^main\/store\/(journal|profiles)\//,
    forbids: (to) => /^main\/store\/(sqlite|postgres)\//.test(to),
    why: () =>
      'The domain of the journal and profiles never imports an adapter (sqlite, postgres).',
  },
  {
    from: /^main\/sandbox\//,
    forbids: (to) => /^main\/(services|store\/postgres)\//.test(to) || /^main\/[^/]+$/.test(to),
    why: () => 'The sandbox is a gateway of its own: it never imports services or the app.',
  },
  {
    from: /^(renderer|preload)\//,
    forbids: (to) => to.startsWith('main/'),
    why: () => 'The renderer and the preload never import main: ask main through the bridge.',
  },
  {
    from: /^common\//,
    forbids: (to) => /^(main|preload|renderer)\//.test(to),
    why: () => 'common/ is imported by main, preload and renderer alike: it imports none of them.',
  },
  {
    from: /^renderer\/src\/screens\/([^/]+)\//,
    forbids: (to, m) =>
      to.startsWith('renderer/src/screens/') && !to.startsWith(`renderer/src/screens/${m[1]}/`),
    why: () =>
      'A screen never imports another screen: move what both need to renderer/src/ (money/, components/).',
  },
];

function checkSource(context, node) {
  const source = node.source;
  if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
  if (!source.value.startsWith('.')) return;
  const from = path.relative(root, context.filename).split(path.sep).join('/');
  const to = path
    .relative(root, path.resolve(path.dirname(context.filename), source.value))
    .split(path.sep)
    .join('/');
  for (const wall of WALLS) {
    const m = wall.from.exec(from);
    if (m && wall.forbids(to, m)) {
      context.report({ node: source, message: `${wall.why(m)} (${from} imports ${to})` });
    }
  }
}

export const layers = {
  rules: {
    walls: {
      meta: {
        type: 'problem',
        docs: { description: 'Imports keep to the layering of docs/architecture.md.' },
        schema: [],
      },
      create: (context) => ({
        ImportDeclaration: (node) => checkSource(context, node),
        ExportNamedDeclaration: (node) => checkSource(context, node),
        ExportAllDeclaration: (node) => checkSource(context, node),
        ImportExpression: (node) => checkSource(context, node),
      }),
    },
  },
};
