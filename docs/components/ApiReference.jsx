'use client';
import { useCallback, useEffect, useMemo, useState } from 'react';

// The REST reference, rendered from an OpenAPI 3 document fetched when the page loads: from the server named by
// ?server=<url> or NEXT_PUBLIC_PIPEWRIGHT_SERVER, else (or when that server does not answer) from the copy the
// build generated from the core (public/openapi.json). Rendered here, with no third-party viewer, so it works offline.

export const ACCENT = '#00d6a1';
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];
const METHOD_COLOURS = {
  get: '#3b82f6',
  post: ACCENT,
  put: '#f59e0b',
  patch: '#a855f7',
  delete: '#ef4444',
  head: '#64748b',
  options: '#64748b',
};

function configuredServer() {
  if (typeof window === 'undefined') return '';
  const fromQuery = new URLSearchParams(window.location.search).get('server');
  return (fromQuery || process.env.NEXT_PUBLIC_PIPEWRIGHT_SERVER || '').replace(/\/+$/, '');
}

async function fetchJson(url) {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url} answered ${response.status} ${response.statusText}`);
  return response.json();
}

/** Load the live document, falling back to the bundled one; answers {document, source, warning}. */
async function loadDocument(server) {
  let warning = null;
  if (server) {
    try {
      return {
        document: await fetchJson(`${server}/openapi.json`),
        source: `${server}/openapi.json`,
        warning,
      };
    } catch (error) {
      warning = `Could not load ${server}/openapi.json (${error.message}); showing the copy bundled with these docs.`;
    }
  }
  return {
    document: await fetchJson('/openapi.json'),
    source: 'bundled copy generated from the core at build time',
    warning,
  };
}

function resolveRef(document, schema) {
  let current = schema;
  for (let hops = 0; current && current.$ref && hops < 10; hops++) {
    const path = current.$ref.replace(/^#\//, '').split('/');
    current = path.reduce((node, key) => (node ? node[key] : undefined), document);
  }
  return current ?? {};
}

function typeLabel(document, raw) {
  const schema = resolveRef(document, raw);
  if (schema.anyOf || schema.oneOf)
    return (schema.anyOf || schema.oneOf).map((s) => typeLabel(document, s)).join(' | ');
  if (schema.type === 'array') return `${typeLabel(document, schema.items ?? {})}[]`;
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const base = Array.isArray(schema.type)
    ? schema.type.join(' | ')
    : schema.type || (schema.properties ? 'object' : 'any');
  return schema.nullable ? `${base} | null` : base;
}

function constraints(schema) {
  const out = [];
  if (schema.format) out.push(`format: ${schema.format}`);
  if (schema.pattern) out.push(`pattern: ${schema.pattern}`);
  if (schema.minLength !== undefined) out.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) out.push(`max length ${schema.maxLength}`);
  if (schema.minimum !== undefined) out.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) out.push(`≤ ${schema.maximum}`);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  return out;
}

function SchemaView({ document, schema: raw, depth = 0 }) {
  const schema = resolveRef(document, raw);
  const variants = schema.anyOf || schema.oneOf;
  if (depth > 6) return <span className="pw-api-muted">…</span>;
  if (schema.type === 'array' && schema.items) {
    const items = resolveRef(document, schema.items);
    return (
      <div>
        <span className="pw-api-type">array of {typeLabel(document, items)}</span>
        {(items.properties || items.anyOf) && (
          <SchemaView document={document} schema={items} depth={depth + 1} />
        )}
      </div>
    );
  }
  if (variants && !schema.properties) {
    return (
      <div>
        <span className="pw-api-type">one of</span>
        <ul className="pw-api-props">
          {variants.map((variant, i) => (
            <li key={i}>
              <SchemaView document={document} schema={variant} depth={depth + 1} />
            </li>
          ))}
        </ul>
      </div>
    );
  }
  if (!schema.properties) {
    return (
      <span className="pw-api-type">
        {typeLabel(document, schema)}
        {constraints(schema).length > 0 && (
          <span className="pw-api-muted"> ({constraints(schema).join(', ')})</span>
        )}
      </span>
    );
  }
  const required = new Set(schema.required ?? []);
  return (
    <ul className="pw-api-props">
      {Object.entries(schema.properties).map(([name, child]) => {
        const resolved = resolveRef(document, child);
        const nested =
          resolved.properties ||
          (resolved.type === 'array' && resolveRef(document, resolved.items ?? {}).properties);
        return (
          <li key={name}>
            <code className="pw-api-name">{name}</code>
            {required.has(name) && <span className="pw-api-required">required</span>}{' '}
            <span className="pw-api-type">{typeLabel(document, resolved)}</span>
            {constraints(resolved).length > 0 && (
              <span className="pw-api-muted"> · {constraints(resolved).join(', ')}</span>
            )}
            {resolved.description && <div className="pw-api-desc">{resolved.description}</div>}
            {nested && <SchemaView document={document} schema={resolved} depth={depth + 1} />}
          </li>
        );
      })}
    </ul>
  );
}

/** A small example value from a schema, for the curl line. */
function example(document, raw, depth = 0) {
  const schema = resolveRef(document, raw);
  if (depth > 4) return null;
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf || schema.oneOf) return example(document, (schema.anyOf || schema.oneOf)[0], depth + 1);
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'string':
      return schema.format === 'date-time' ? '2026-01-01T00:00:00Z' : 'string';
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return true;
    case 'array':
      return [];
    default: {
      if (!schema.properties) return {};
      const required = schema.required ?? Object.keys(schema.properties);
      return Object.fromEntries(
        required
          .filter((k) => schema.properties[k])
          .map((k) => [k, example(document, schema.properties[k], depth + 1)]),
      );
    }
  }
}

function curlFor(document, server, method, path, operation) {
  const base = server || 'http://localhost:5000';
  const lines = [`curl -X ${method.toUpperCase()} '${base}${path}'`];
  const secured = operation.security ? operation.security.length > 0 : (document.security ?? []).length > 0;
  if (secured) lines.push(`  -H "Authorization: Bearer $TOKEN"`);
  const body = operation.requestBody?.content?.['application/json']?.schema;
  if (body) {
    lines.push(`  -H 'Content-Type: application/json'`);
    lines.push(`  -d '${JSON.stringify(example(document, body))}'`);
  }
  return lines.join(' \\\n');
}

function Operation({ document, server, method, path, operation }) {
  const id = `op-${method}-${path.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
  const parameters = (operation.parameters ?? []).map((p) => resolveRef(document, p));
  const body = operation.requestBody?.content?.['application/json']?.schema;
  return (
    <details className="pw-api-op" id={id} data-operation={`${method.toUpperCase()} ${path}`}>
      <summary>
        <span className="pw-api-method" style={{ background: METHOD_COLOURS[method] }}>
          {method.toUpperCase()}
        </span>
        <code className="pw-api-path">{path}</code>
        <span className="pw-api-summary">{operation.summary}</span>
      </summary>
      <div className="pw-api-body">
        {operation.description && <p>{operation.description}</p>}
        {operation.security && operation.security.length === 0 && (
          <p className="pw-api-muted">No authentication needed.</p>
        )}
        {parameters.length > 0 && (
          <>
            <h4>Parameters</h4>
            <table className="pw-api-table">
              <thead>
                <tr>
                  <th>name</th>
                  <th>in</th>
                  <th>type</th>
                  <th>description</th>
                </tr>
              </thead>
              <tbody>
                {parameters.map((p) => (
                  <tr key={`${p.in}-${p.name}`}>
                    <td>
                      <code>{p.name}</code>
                      {p.required && <span className="pw-api-required">required</span>}
                    </td>
                    <td>{p.in}</td>
                    <td>
                      {typeLabel(document, p.schema ?? {})}
                      {p.schema && constraints(resolveRef(document, p.schema)).length > 0 && (
                        <div className="pw-api-muted">
                          {constraints(resolveRef(document, p.schema)).join(', ')}
                        </div>
                      )}
                    </td>
                    <td>{p.description ?? resolveRef(document, p.schema ?? {}).description ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
        {body && (
          <>
            <h4>
              Request body{' '}
              {operation.requestBody.required && <span className="pw-api-required">required</span>}
            </h4>
            <SchemaView document={document} schema={body} />
          </>
        )}
        <h4>Responses</h4>
        <ul className="pw-api-responses">
          {Object.entries(operation.responses ?? {}).map(([status, response]) => {
            const resolved = resolveRef(document, response);
            const schema = resolved.content?.['application/json']?.schema;
            return (
              <li key={status}>
                <span className="pw-api-status" data-ok={String(status).startsWith('2')}>
                  {status}
                </span>{' '}
                {resolved.description && resolved.description !== 'Default Response'
                  ? resolved.description
                  : ''}
                {schema && <SchemaView document={document} schema={schema} />}
              </li>
            );
          })}
        </ul>
        <h4>Example</h4>
        <pre className="pw-api-curl">{curlFor(document, server, method, path, operation)}</pre>
      </div>
    </details>
  );
}

export function ApiReference() {
  const [state, setState] = useState({ status: 'loading' });
  const [filter, setFilter] = useState('');
  const [server, setServer] = useState('');
  const [slow, setSlow] = useState(false);

  const load = useCallback(() => {
    const target = configuredServer();
    setServer(target);
    setState({ status: 'loading' });
    setSlow(false);
    const timer = setTimeout(() => setSlow(true), 200);
    loadDocument(target)
      .then((loaded) => setState({ status: 'ready', ...loaded }))
      .catch((error) => setState({ status: 'error', error }))
      .finally(() => clearTimeout(timer));
  }, []);
  useEffect(() => load(), [load]);

  const groups = useMemo(() => {
    if (state.status !== 'ready') return [];
    const byTag = new Map(
      (state.document.tags ?? []).map((t) => [
        t.name,
        { tag: t.name, description: t.description, operations: [] },
      ]),
    );
    const needle = filter.trim().toLowerCase();
    for (const [path, item] of Object.entries(state.document.paths ?? {})) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const text =
          `${method} ${path} ${operation.summary ?? ''} ${(operation.tags ?? []).join(' ')}`.toLowerCase();
        if (needle && !text.includes(needle)) continue;
        const tag = operation.tags?.[0] ?? 'Other';
        if (!byTag.has(tag)) byTag.set(tag, { tag, operations: [] });
        byTag.get(tag).operations.push({ method, path, operation });
      }
    }
    return [...byTag.values()].filter((g) => g.operations.length > 0);
  }, [state, filter]);

  const info = state.status === 'ready' ? (state.document.info ?? {}) : {};
  const count = groups.reduce((n, g) => n + g.operations.length, 0);

  return (
    <div className="pw-api" style={{ '--pw-accent': ACCENT }}>
      <header className="pw-api-header">
        <h1 className="pw-api-title">REST API reference</h1>
        <p>
          Every HTTP operation of the Pipewright server, read from its OpenAPI description. Start a server and
          open this page with <code>?server=http://localhost:5000</code> to browse exactly what that server
          offers. Guides and examples are in the <a href="/docs/dev_api_rest">REST API guide</a>.
        </p>
      </header>
      {state.status === 'loading' && slow && (
        <div className="pw-spinner-wrap" role="status" aria-label="Loading the API description">
          <div className="pw-spinner" />
        </div>
      )}
      {state.status === 'error' && (
        <div className="pw-error-box" role="alert">
          <strong>Could not load the API description.</strong>
          <pre>{String(state.error?.message ?? state.error)}</pre>
          <button type="button" onClick={load}>
            Retry
          </button>
        </div>
      )}
      {state.status === 'ready' && (
        <>
          <div className="pw-api-meta">
            <span>
              <strong>{info.title}</strong> API version{' '}
              <strong data-testid="api-version">{info.version}</strong>
            </span>
            <span className="pw-api-muted">Source: {state.source}</span>
          </div>
          {state.warning && <p className="pw-api-warning">{state.warning}</p>}
          <input
            className="pw-api-filter"
            type="search"
            placeholder="Filter operations (path, method, summary)…"
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            aria-label="Filter operations"
          />
          <p className="pw-api-muted">{count} operations</p>
          <nav className="pw-api-tags">
            {groups.map((g) => (
              <a key={g.tag} href={`#tag-${g.tag.replace(/\W+/g, '-')}`}>
                {g.tag}
              </a>
            ))}
          </nav>
          {groups.map((g) => (
            <section key={g.tag} className="pw-api-group" id={`tag-${g.tag.replace(/\W+/g, '-')}`}>
              <h2>{g.tag}</h2>
              {g.description && <p>{g.description}</p>}
              {g.operations.map(({ method, path, operation }) => (
                <Operation
                  key={`${method} ${path}`}
                  document={state.document}
                  server={server}
                  method={method}
                  path={path}
                  operation={operation}
                />
              ))}
            </section>
          ))}
        </>
      )}
    </div>
  );
}
