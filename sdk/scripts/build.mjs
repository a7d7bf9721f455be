// npm run build: the sdk as ES modules with type declarations in dist/ (or the folder given as the first argument).
// tsc compiles src/; the generated client types (a .d.ts tsc does not copy) and the addon template travel along.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const sdk = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(sdk, 'dist'));
rmSync(out, { recursive: true, force: true });
const tsc = join(sdk, '..', 'node_modules', '.bin', 'tsc');
execFileSync(tsc, ['-p', join(sdk, 'tsconfig.build.json'), '--outDir', out], { stdio: 'inherit' });
cpSync(join(sdk, 'src', 'client', 'schema.d.ts'), join(out, 'client', 'schema.d.ts'));
console.log(`Built the sdk into ${out}`);
