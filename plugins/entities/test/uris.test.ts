import { describe, expect, it } from '@jest/globals';
import { formatTemplate, normalisePath } from '../src/read/file-template.js';
import { formatUri, parseUri, parseVersion, UriError } from '../src/read/uris.js';

// The parser and formatter alone: whatever formatUri writes, parseUri reads back to the same parts.
describe('URI parser and formatter', () => {
  it('round-trips each kind of entity', () => {
    const cases = [
      { project: 'demo', path: 'assets/chars/hero' },
      { project: 'demo', path: 'assets/hero', product: 'modelMain' },
      { project: 'demo', path: 'assets/hero', product: 'modelMain', version: 7 },
      { project: 'demo', path: 'assets/hero', product: 'modelMain', version: -3 },
      { project: 'demo', path: 'assets/hero', product: 'modelMain', version: 12, representation: 'abc' },
      { project: 'demo', path: 'sh010', task: 'comp' },
      { project: 'demo', path: 'sh010', task: 'comp', workfile: 'comp v001 (copy).nk' },
    ];
    for (const parts of cases) {
      const parsed = parseUri(formatUri(parts));
      expect(parsed.project).toBe(parts.project);
      expect(parsed.path).toBe(parts.path);
      expect(parsed.product).toBe(parts.product ?? null);
      expect(parsed.task).toBe(parts.task ?? null);
      expect(parsed.workfile).toBe(parts.workfile ?? null);
      expect(parsed.representation).toBe(parts.representation ?? null);
      if (parts.version === undefined) expect(parsed.version).toBeNull();
      else
        expect(parsed.version).toEqual(
          parts.version < 0 ? { kind: 'hero' } : { kind: 'number', number: parts.version },
        );
    }
    expect(formatUri({ project: 'p', path: '/a/b/', product: 'x', version: 3 })).toBe(
      'ayon+entity://p/a/b?product=x&version=v003',
    );
  });

  it('knows the target: the deepest level named', () => {
    expect(parseUri('ayon://p/a').target).toBe('folder');
    expect(parseUri('ayon://p/a?product=x').target).toBe('product');
    expect(parseUri('ayon://p/a?product=x&representation=abc').target).toBe('representation');
    expect(parseUri('ayon://p/a?version=latest').target).toBe('version');
    expect(parseUri('ayon://p/a?workfile=f.ma').target).toBe('workfile');
    expect(parseUri('ayon://p').target).toBeNull();
    // An empty argument counts as absent.
    expect(parseUri('ayon://p/a?product=&task=comp').target).toBe('task');
    expect(parseUri('ayon://p/*?product=x').path).toBe('*');
  });

  it('reads versions in every form', () => {
    expect(parseVersion('v003')).toEqual({ kind: 'number', number: 3 });
    expect(parseVersion('003')).toEqual({ kind: 'number', number: 3 });
    expect(parseVersion('LATEST')).toEqual({ kind: 'latest' });
    expect(parseVersion('latestDone')).toEqual({ kind: 'latestdone' });
    expect(parseVersion('hero')).toEqual({ kind: 'hero' });
    expect(parseVersion('*')).toEqual({ kind: 'any' });
    expect(() => parseVersion('v3a')).toThrow(UriError);
  });

  it('refuses what AYON refuses', () => {
    expect(() => parseUri('ayon+entity://p/a?task=t&version=v001')).toThrow(
      /cannot be queried with versions/,
    );
    expect(() => parseUri('ayon://p/a/*')).toThrow(/Invalid path element/);
    expect(() => parseUri('ayon://p/a//b')).toThrow(/Invalid path element/);
    expect(() => parseUri('ayon://p/a?product=-x')).toThrow(/Invalid product name/);
    expect(() => parseUri('ftp://p/a')).toThrow(/Invalid URI/);
    expect(() => parseUri('ayon://p/%E0%A4%A')).toThrow(UriError);
    expect(parseUri('ayon://p/a?product=x&version=1:SDF_FORMAT_ARGS:a=b').version).toEqual({
      kind: 'number',
      number: 1,
    });
  });
});

describe('file templates', () => {
  it('fills nested keys, padding and optional parts', () => {
    const context = {
      root: { work: '/mnt' },
      folder: { name: 'hero' },
      version: 7,
      output: null,
      ext: 'exr',
      frame: 12,
    };
    expect(
      formatTemplate('{root[work]}/{folder[name]}/v{version:0>3}/x<_{output}><.{frame:0>4}>.{ext}', context),
    ).toBe('/mnt/hero/v007/x.0012.exr');
    // Unknown keys outside optional parts stay for the client.
    expect(formatTemplate('{root[work]}/{folder.name}/{task[name]}', { folder: { name: 'a' } })).toBe(
      '{root[work]}/a/{task[name]}',
    );
  });

  it('tidies separators, keeping UNC roots and using backslashes on Windows', () => {
    expect(normalisePath('/mnt//a///b', 'linux')).toBe('/mnt/a/b');
    expect(normalisePath('//server/share//a', 'windows')).toBe('\\\\server\\share\\a');
    expect(normalisePath('C:/p//a', 'windows')).toBe('C:\\p\\a');
  });
});
