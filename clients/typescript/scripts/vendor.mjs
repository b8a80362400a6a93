// The browser build of the SDK that the web client loads without a build step (web/vendor/firebreak-client/):
// the compiled dist/*.js as tsc wrote them and openapi-fetch's ES module, with the one bare import
// ('openapi-fetch') rewritten to a relative one, since the page's Content-Security-Policy (script-src 'self')
// allows no inline import map. Run by `npm run vendor` after the build; an optional argument names another folder
// to write to (tests/web/test_web_vendor.py builds into one and compares it with the checked-in copy).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(here, '..', '..', 'web', 'vendor', 'firebreak-client'));
const dist = join(here, 'dist');
const fetchPackage = join(here, 'node_modules', 'openapi-fetch');
const BARE = /(from\s+|import\s*\(\s*)(['"])openapi-fetch\2/g;

if (!existsSync(join(dist, 'index.js'))) throw new Error('dist/ is not built: npm run build first');
mkdirSync(out, { recursive: true });
for (const name of readdirSync(out)) { // what an earlier run wrote (a module since removed goes with it)
  if (name.endsWith('.js') || name === 'LICENSE-openapi-fetch' || name === 'README.md') rmSync(join(out, name));
}

const modules = readdirSync(dist).filter((name) => name.endsWith('.js')).sort();
for (const name of modules) {
  const text = readFileSync(join(dist, name), 'utf8').replace(BARE, '$1$2./openapi-fetch.js$2');
  if (/from\s+['"][^./]/.test(text)) throw new Error(`${name} imports a package that is not vendored`);
  writeFileSync(join(out, name), text);
}
writeFileSync(join(out, 'openapi-fetch.js'), readFileSync(join(fetchPackage, 'dist', 'index.js'), 'utf8'));
writeFileSync(join(out, 'LICENSE-openapi-fetch'), readFileSync(join(fetchPackage, 'LICENSE'), 'utf8'));

const version = (folder) => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).version;
writeFileSync(join(out, 'README.md'), `# @firebreak/client for the web client (generated: do not edit)

The TypeScript SDK (\`clients/typescript\`, version ${version(here)}) as the web client imports it, with no build
step at page time: its compiled modules (\`dist/*.js\`) and openapi-fetch ${version(fetchPackage)}'s ES module
(\`openapi-fetch.js\`, MIT: \`LICENSE-openapi-fetch\`), the bare \`'openapi-fetch'\` import rewritten to
\`'./openapi-fetch.js'\` (the page's Content-Security-Policy allows no inline import map).

Rebuild after changing the SDK: \`npm run vendor\` in \`clients/typescript\`. \`tests/web/test_web_vendor.py\` fails
when this folder differs from what that builds from the current sources.

Files: ${[...modules, 'openapi-fetch.js'].join(', ')}.
`);
