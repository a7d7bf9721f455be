import { createHash } from 'node:crypto';

/** Up to two letters: of the first and last word of the full name, else of the parts of the user name (ada.king). */
export function initials(name: string, fullName: string): string {
  const words = (fullName.trim() ? fullName.trim().split(/\s+/) : name.split(/[._-]+/)).filter(Boolean);
  const picked = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  // Array.from keeps a letter outside the basic plane (a surrogate pair) whole.
  return (
    picked
      .map((word) => Array.from(word)[0])
      .join('')
      .toUpperCase() || '?'
  );
}

/** A muted colour of its own for each person, the same on every server and every day. */
function backgroundOf(seed: string): string {
  const hue = createHash('sha256').update(seed).digest().readUInt16BE(0) % 360;
  return `hsl(${hue}, 30%, 38%)`;
}

const escapeXml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

/** What a user without an uploaded picture is shown as, like AYON: their initials on a coloured square (SVG). */
export function initialsAvatar(name: string, fullName: string): Buffer {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">' +
    `<rect width="100" height="100" fill="${backgroundOf(`${name}\n${fullName}`)}"/>` +
    '<text x="50" y="50" dy="0.35em" text-anchor="middle" fill="#fff" font-size="42" ' +
    `font-family="Arial, Helvetica, sans-serif">${escapeXml(initials(name, fullName))}</text></svg>`;
  return Buffer.from(svg, 'utf8');
}
