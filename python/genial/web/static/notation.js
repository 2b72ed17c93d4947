// The position notation in the analysis board's address: /analysis?position=TEXT opens a
// position written in one line (genial.position); the server reads and checks the text.

// The notation of an address's query (location.search), as written: a "+" stays a "+" (the
// notation's own, between a placement's halves), unlike URLSearchParams, which reads it as
// a space. A broken %-escape is left as it stands, for the server to name. Null without one.
export function notationOfSearch(search) {
  const m = search.match(/[?&]position=([^&]*)/);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

// The path that opens a notation on the analysis board.
export function notationPath(notation) {
  return `/analysis?position=${encodeURIComponent(notation)}`;
}
