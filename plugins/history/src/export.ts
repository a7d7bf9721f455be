import type { HistoryEntry } from './service.js';

// A project's history as a file: JSON lines (one change per line, values as JSON) or CSV (values that are not text
// as JSON), written page by page so that millions of rows never sit in memory.

const COLUMNS = [
  'id',
  'changedAt',
  'entityType',
  'entityId',
  'field',
  'oldValue',
  'newValue',
  'user',
  'via',
  'sender',
  'senderType',
  'client',
] as const satisfies readonly (keyof HistoryEntry)[];

/** A CSV cell; text a spreadsheet would run as a formula (=, +, -, @) is kept as text with a leading quote. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export async function* exportLines(
  pages: AsyncIterable<HistoryEntry[]>,
  format: 'csv' | 'jsonl',
): AsyncGenerator<string> {
  if (format === 'csv') yield `${COLUMNS.join(',')}\r\n`;
  for await (const page of pages) {
    yield format === 'csv'
      ? page.map((entry) => `${COLUMNS.map((column) => cell(entry[column])).join(',')}\r\n`).join('')
      : page.map((entry) => `${JSON.stringify(entry)}\n`).join('');
  }
}

export const EXPORT_TYPES = { csv: 'text/csv; charset=utf-8', jsonl: 'application/x-ndjson' } as const;
