import { useState } from 'react';
import { messageOf } from '@pipewright/sdk/ui';

/**
 * Reading a page older than those shown: reading while one runs, and the error of the last one until it is
 * cleared. readOlder runs such a read, which adds the page where it belongs.
 */
export function useOlderPages() {
  const [readingOlder, setReadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<string | null>(null);
  const readOlder = async (readPage: () => Promise<void>) => {
    setReadingOlder(true);
    try {
      await readPage();
    } catch (failure) {
      setOlderError(messageOf(failure));
    } finally {
      setReadingOlder(false);
    }
  };
  return { readingOlder, olderError, setOlderError, readOlder };
}
