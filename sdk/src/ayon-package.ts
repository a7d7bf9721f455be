/**
 * AYON addon packages describe themselves in package.py (name = "...", version = "...", title = "..."). Pipewright
 * installs them as they are: their client files (private/, public/, frontend/) are served to the launcher and the
 * web app, while their Python server code is kept but does not run here. The file is read, never executed.
 */
export const AYON_PACKAGE_FILE = 'package.py';

/** What package.py says of an AYON addon, read from its top-level string assignments. */
export interface AyonPackageInfo {
  name?: string;
  version?: string;
  title?: string;
}

/** Read name, version and title from package.py's text without running it. */
export function readAyonPackagePy(text: string): AyonPackageInfo {
  const value = (key: string) =>
    new RegExp(`^${key}\\s*=\\s*(?:"([^"\\n]*)"|'([^'\\n]*)')\\s*(?:#.*)?$`, 'm')
      .exec(text)
      ?.slice(1)
      .find((v) => v !== undefined);
  return { name: value('name'), version: value('version'), title: value('title') };
}
