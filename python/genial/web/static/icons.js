// The page's glyphs as inline SVG (a font may lack ⏮ or ⏭ and show empty boxes).
import { svgEl } from "./dom.js";

// Paths in a 24×24 box, drawn with currentColor.
const PATHS = {
  first: { fill: "M6 5h2.5v14H6zM19 5v14L9.5 12z" },
  previous: { fill: "M17 5v14L6 12z" },
  next: { fill: "M7 5v14l11-7z" },
  last: { fill: "M15.5 5H18v14h-2.5zM5 5v14l9.5-7z" },
  rotate: { stroke: "M19 12a7 7 0 1 1-2.05-4.95M19 4v4h-4" },
  undo: { stroke: "M9 14 4 9l5-5M4 9h10a6 6 0 0 1 0 12h-3" },
  check: { stroke: "M5 12.5l4.5 4.5L19 7" },
  download: { stroke: "M12 4v11M7 10l5 5 5-5M5 20h14" },
  play: { fill: "M8 5v14l11-7z" },
};

export function glyph(name, size = 18) {
  const p = PATHS[name];
  const svg = svgEl("svg", {
    viewBox: "0 0 24 24",
    width: size,
    height: size,
    class: `glyph glyph-${name}`,
    "aria-hidden": "true",
    focusable: "false",
  });
  if (p.fill) svgEl("path", { d: p.fill, fill: "currentColor" }, svg);
  if (p.stroke) {
    svgEl(
      "path",
      {
        d: p.stroke,
        fill: "none",
        stroke: "currentColor",
        "stroke-width": "2.2",
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
      },
      svg,
    );
  }
  return svg;
}
