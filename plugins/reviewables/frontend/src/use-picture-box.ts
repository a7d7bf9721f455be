import { useEffect, useState, type RefObject } from 'react';
import { naturalSize, type Picture } from './annotations';

/** Where the picture sits in its element (object-fit: contain), in the pixels of the element's offset parent. */
export interface PictureBox {
  x: number;
  y: number;
  w: number;
  h: number;
  /** The picture's own size in its pixels (0 until known). */
  natural: { w: number; h: number };
}

const NOTHING: PictureBox = { x: 0, y: 0, w: 0, h: 0, natural: { w: 0, h: 0 } };

/** The picture's box, measured again whenever the element resizes or learns its picture's size. */
export function usePictureBox(picture: RefObject<Picture | null>): PictureBox {
  const [box, setBox] = useState(NOTHING);
  useEffect(() => {
    const element = picture.current;
    if (!element) return;
    const measure = () => {
      const { clientWidth: bw, clientHeight: bh } = element;
      const natural = naturalSize(element);
      if (!natural.w || !natural.h) return;
      const scale = Math.min(bw / natural.w, bh / natural.h);
      const w = natural.w * scale;
      const h = natural.h * scale;
      setBox({ x: element.offsetLeft + (bw - w) / 2, y: element.offsetTop + (bh - h) / 2, w, h, natural });
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    // A video knows its size with its metadata, an image once it has loaded.
    element.addEventListener('loadedmetadata', measure);
    element.addEventListener('load', measure);
    measure();
    return () => {
      observer.disconnect();
      element.removeEventListener('loadedmetadata', measure);
      element.removeEventListener('load', measure);
    };
  }, [picture]);
  return box;
}
