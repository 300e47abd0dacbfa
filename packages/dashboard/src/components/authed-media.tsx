import { useEffect, useState } from 'react';
import { call } from '../api';

/**
 * Media behind the API key: `<video src>` and `<img src>` cannot send an Authorization header, and the key must never
 * go into a URL, so the page fetches the bytes with the header and shows them from a `blob:` URL (allowed by the
 * CSP's media-src and img-src), revoked when the element goes.
 */
export function useObjectUrl(key: string | null, path: string | null): { url: string | null; error: string | null } {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!key || !path) return;
    let live = true;
    let made: string | null = null;
    call(key, path)
      .then((res) => res.blob())
      .then(
        (blob) => {
          if (!live) return;
          made = URL.createObjectURL(blob);
          setUrl(made);
        },
        (e: Error) => live && setError(e.message),
      );
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
      setUrl(null);
    };
  }, [key, path]);
  return { url, error };
}

export function AuthedVideo(props: { apiKey: string; path: string; poster?: string | null; label: string }) {
  const { url, error } = useObjectUrl(props.apiKey, props.path);
  if (error) return <p role="alert">The video could not be loaded: {error}</p>;
  if (!url) return <p>Loading the video…</p>;
  return <video src={url} poster={props.poster ?? undefined} controls preload="metadata" aria-label={props.label} className="video" />;
}

export function AuthedImage(props: { apiKey: string; path: string; alt: string; className?: string }) {
  const { url } = useObjectUrl(props.apiKey, props.path);
  return url ? <img src={url} alt={props.alt} className={props.className ?? 'thumb'} /> : <span className="thumb placeholder" />;
}
