import { describe, expect, test } from '@jest/globals';
import { candidates } from '../scripts/static-server.mjs';

describe('the static host mapping the site relies on', () => {
  test('/x is served from x, x.html or x/index.html; /x/ from x/index.html or x.html', () => {
    expect(candidates('/docs/dev_testing')).toEqual([
      '/docs/dev_testing',
      '/docs/dev_testing.html',
      '/docs/dev_testing/index.html',
    ]);
    expect(candidates('/features/')).toEqual(['/features/index.html', '/features.html']);
    expect(candidates('/')).toEqual(['/index.html', '.html']);
  });
});
