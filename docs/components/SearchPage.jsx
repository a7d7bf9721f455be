'use client';
import { useEffect, useRef, useState } from 'react';

async function importPagefind() {
  const url = '/_pagefind/pagefind.js';
  window.pagefind = await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ url);
  await window.pagefind.options({ baseUrl: '/' });
}

// The full search page (/search?q=...): the same offline pagefind index the navbar search uses, with room for
// longer excerpts. The index is built by `pagefind` after `next build` and lives in out/_pagefind/.
export function SearchPage() {
  const [query, setQuery] = useState('');
  const [state, setState] = useState({ status: 'idle', results: [] });
  const ready = useRef(null);

  useEffect(() => {
    const initial = new URLSearchParams(window.location.search).get('q') ?? '';
    setQuery(initial);
  }, []);

  useEffect(() => {
    const text = query.trim();
    const url = new URL(window.location.href);
    if (text) url.searchParams.set('q', text);
    else url.searchParams.delete('q');
    window.history.replaceState(window.history.state, '', url);
    if (!text) {
      setState({ status: 'idle', results: [] });
      return;
    }
    let cancelled = false;
    setState((s) => ({ ...s, status: 'loading' }));
    (async () => {
      try {
        ready.current ??= window.pagefind ? Promise.resolve() : importPagefind();
        await ready.current;
        const search = await window.pagefind.debouncedSearch(text);
        if (cancelled || !search) return;
        const results = await Promise.all(search.results.slice(0, 20).map((r) => r.data()));
        if (!cancelled) setState({ status: 'ready', results });
      } catch (error) {
        ready.current = null;
        if (!cancelled) setState({ status: 'error', results: [], error });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [query]);

  return (
    <div className="pw-search-page">
      <h1 style={{ fontSize: '2rem', fontWeight: 800, margin: '1.5rem 0 1rem' }}>Search the documentation</h1>
      <input
        className="pw-api-filter"
        type="search"
        autoFocus
        placeholder="Search: addon, event, login, publishing…"
        aria-label="Search the documentation"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {state.status === 'error' && (
        <div className="pw-error-box" role="alert">
          <strong>Unable to fetch results</strong>
          <p>You might want to check your network connection.</p>
        </div>
      )}
      {state.status === 'ready' && state.results.length === 0 && (
        <p style={{ marginTop: '1rem' }}>
          No results for <strong>“{query.trim()}”</strong>. Try a shorter query or another word for the same
          thing.
        </p>
      )}
      {state.status === 'ready' && state.results.length > 0 && (
        <ol className="pw-search-results" style={{ marginTop: '1rem' }}>
          {state.results.map((result) => (
            <li key={result.url} style={{ margin: '1rem 0' }}>
              <a
                href={result.url.replace(/\.html$/, '')}
                style={{ fontWeight: 700, color: 'var(--pw-accent)' }}
              >
                {result.meta?.title ?? result.url}
              </a>
              <p
                style={{ opacity: 0.8, fontSize: '0.92rem' }}
                dangerouslySetInnerHTML={{ __html: result.excerpt }}
              />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
