import { useEffect, type RefObject } from 'react';

/**
 * Stop a video's download when it leaves the page. A <video> taken off the page goes on loading until it is
 * collected, holding one of the six connections a browser opens to a server: after a few changes of version, a new
 * video could wait for data that never came.
 */
export function useReleasedVideo(video: RefObject<HTMLVideoElement | null>) {
  useEffect(() => {
    const element = video.current;
    return () => {
      if (!element) return;
      element.removeAttribute('src');
      element.load();
    };
  }, [video]);
}
