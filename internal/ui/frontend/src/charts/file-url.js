// Stored file URLs (debug images, plots' images) name the file server's
// public address. The web origin serves the same file server under
// /files/, where the session cookie authenticates the download, so a
// stored http(s) URL is shown through /files/<its path>; the original URL
// remains the fallback for files kept elsewhere.

export function viaWebOrigin(url) {
  if (!url || typeof url !== 'string') return url;
  let u;
  try { u = new URL(url, location.href); } catch { return url; }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return url;
  if (u.origin === location.origin) return url;
  return '/files' + u.pathname + u.search;
}

// imgFallback is an <img> onError handler: once the /files/ copy failed,
// try the stored URL itself.
export function imgFallback(original) {
  return e => {
    const img = e.currentTarget;
    if (original && img.dataset.fellBack !== '1' && img.getAttribute('src') !== original) {
      img.dataset.fellBack = '1';
      img.src = original;
    } else {
      img.classList.add('img-broken');
    }
  };
}
