import { describe, expect, it } from '@jest/globals';
import { withoutToken } from '../src/server.js';

// Video players and download links send the session token as ?token=; the request log keeps the URL without it.
describe('the request log', () => {
  it('blanks the token of a URL and keeps the rest', () => {
    expect(withoutToken('/api/projects/p/files/f/payload?token=s3cret&t=2')).toBe(
      '/api/projects/p/files/f/payload?token=[hidden]&t=2',
    );
    expect(withoutToken('/x?a=1&Token=s3cret')).toBe('/x?a=1&Token=[hidden]');
    expect(withoutToken('/api/info')).toBe('/api/info');
  });
});
