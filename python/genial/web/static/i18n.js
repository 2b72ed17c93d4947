// The page's language. Every text the page writes itself is English inside `t("...")` (or
// `nt(one, many, n)` for a text whose form depends on a number) and looked up in the
// language's catalogue: `GET /api/catalogue/CODE`, made by the server from the same `.po`
// files as the terminal's (genial.translation.page_catalogue). The texts the server sends
// (statuses, endings, errors, bot descriptions) come already in the page's language: the
// page names it in every request (`Accept-Language`) and live connection (`?lang=`).
//
// The language: the one the player chose in the header (kept in localStorage), else the one
// the server read from the browser's Accept-Language on this load (`<html data-asked>`),
// else `navigator.language`; anything unknown is English, without an error.

const KEY = "genial-language";
// The languages offered in the header's switch, each in its own words: the server's list
// (genial.translation.LANGUAGES, in `<html data-languages>`), so that a language added
// there (one catalogue file and one line) is offered with no edit here.
export const LANGUAGES = languagesOf(globalThis.document);

function languagesOf(doc) {
  try {
    const listed = JSON.parse(doc?.documentElement?.dataset?.languages || "null");
    if (listed && typeof listed === "object" && Object.hasOwn(listed, "en")) return listed;
  } catch {
    // a page not served by genial serve: the four languages of the boxes
  }
  return { en: "English", fr: "Français", de: "Deutsch", pl: "Polski" };
}

let language = "en";
let messages = {};
let plurals = null;

function known(tag) {
  const code = String(tag || "")
    .split(/[-_.@]/)[0]
    .toLowerCase();
  return Object.hasOwn(LANGUAGES, code) ? code : null;
}

function stored() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null; // storage refused (a private window): the choice lasts this page
  }
}

// The language to use on this load, before its catalogue is fetched.
export function chosen(doc = globalThis.document, nav = globalThis.navigator) {
  const own = known(stored());
  if (own) return own;
  const root = doc?.documentElement;
  if (root?.dataset?.asked !== undefined) return known(root.lang) || "en";
  return known(nav?.language) || "en";
}

export function current() {
  return language;
}

// Uses `code` with its catalogue (the server's JSON, or a stand-in in the unit tests).
export function use(code, catalogue = null) {
  language = known(code) || "en";
  messages = catalogue?.messages || {};
  plurals = catalogue?.plural || null;
}

// Fetches and uses the chosen language's catalogue; English (nothing to fetch) when it
// cannot be had.
export async function load() {
  const code = chosen();
  if (code === "en") {
    use("en");
  } else {
    try {
      const res = await fetch(`/api/catalogue/${code}`);
      use(code, res.ok ? await res.json() : null);
    } catch {
      use("en");
    }
  }
  if (globalThis.document) document.documentElement.lang = language;
  return language;
}

// The header's switch: remembers the choice and shows the page again in it.
export function choose(code) {
  try {
    localStorage.setItem(KEY, known(code) || "en");
  } catch {
    // not kept: the reload below still follows the browser's language
  }
  location.reload();
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

// `message` (English, with `{name}` placeholders) in the page's language.
function formsOf(message) {
  return Object.hasOwn(messages, message) ? messages[message] : null;
}

export function t(message, params) {
  const forms = formsOf(message);
  return fill(forms?.[0] || message, params);
}

// The form of a text that fits the number `n` (`{n}` is filled with it, written the
// language's way), in the page's language: its catalogue's plural table.
export function nt(one, many, n, params = {}) {
  const forms = formsOf(one);
  const all = { n: num(n), ...params };
  if (forms && plurals) {
    const k = Math.abs(Math.trunc(n));
    const form = forms[plurals[k < plurals.length ? k : 100 + (k % 100)]];
    if (form) return fill(form, all);
  }
  return fill(n === 1 ? one : many, all);
}

const formats = new Map();
function numberFormat(options) {
  const key = `${language} ${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(language, options);
    formats.set(key, f);
  }
  return f;
}

// A number written the language's way (`12,5` in French), with at most `digits` decimals.
export function num(x, digits = 0) {
  return numberFormat({ maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(x);
}

// A number with exactly `digits` decimals, the language's way.
export function fixed(x, digits) {
  return numberFormat({ maximumFractionDigits: digits, minimumFractionDigits: digits }).format(x);
}

// A share (0..1) as a percentage the language's way (`12,5 %` in French), `digits` decimals.
export function pct(share, digits = 0) {
  return numberFormat({ style: "percent", maximumFractionDigits: digits, minimumFractionDigits: digits }).format(share);
}

// The page's own HTML in the language: each element marked `data-t` (its English there)
// and each `data-t-ATTRIBUTE`. The server sends it translated already; this covers a
// language chosen in the header that the browser's Accept-Language did not ask for.
export function translatePage(root = globalThis.document) {
  for (const el of root.querySelectorAll("[data-t]")) {
    if (el.dataset.t) el.textContent = t(el.dataset.t);
  }
  for (const el of root.querySelectorAll("*")) {
    for (const name of el.getAttributeNames()) {
      if (name.startsWith("data-t-")) el.setAttribute(name.slice(7), t(el.getAttribute(name)));
    }
  }
}
