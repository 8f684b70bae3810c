// Bundle the app into dist/: hashed assets (cacheable for ever) and an index.html that names them.
import { build } from "esbuild";
import { readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";

const dist = "dist";
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist);
const result = await build({
  entryPoints: { app: "src/main.tsx" },
  bundle: true,
  format: "esm",
  minify: process.env.WEB_MINIFY !== "0",
  sourcemap: true,
  target: ["es2022"],
  outdir: path.join(dist, "assets"),
  entryNames: "[name]-[hash]",
  // the trip page (the map, the AI SDK) is a chunk of its own, loaded when a trip opens
  splitting: true,
  chunkNames: "chunk-[name]-[hash]",
  assetNames: "[name]-[hash]",
  loader: { ".png": "file", ".svg": "file" },
  metafile: true,
  define: { "process.env.NODE_ENV": process.env.WEB_MINIFY === "0" ? '"development"' : '"production"' },
  legalComments: "linked",
  logLevel: "warning",
});
const outputs = Object.keys(result.metafile.outputs).map((p) => path.basename(p));
const js = outputs.find((n) => /^app-.*\.js$/.test(n));
const css = outputs.find((n) => /^app-.*\.css$/.test(n));
// A chunk's own stylesheet would never be loaded (esbuild does not link it): every style is the app's
const stray = outputs.filter((n) => /^chunk-.*\.css$/.test(n));
if (stray.length) throw new Error(`stylesheets of lazily loaded chunks would be lost: ${stray.join(", ")}`);
const html = readFileSync("index.html", "utf8").replace("APP_JS", js).replace("APP_CSS", css);
writeFileSync(path.join(dist, "index.html"), html);
writeFileSync(path.join(dist, "meta.json"), JSON.stringify(result.metafile));
// The service worker (src/sw.ts) at the root, so that it serves the whole app, with this build's shell:
// every script, stylesheet and file the app loads (not the source maps, nor the licences).
const shell = outputs.filter((n) => !n.endsWith(".map") && !n.endsWith(".LEGAL.txt")).map((n) => `/assets/${n}`);
await build({
  entryPoints: { sw: "src/sw.ts" },
  bundle: true,
  format: "iife",
  minify: process.env.WEB_MINIFY !== "0",
  target: ["es2022"],
  outdir: dist,
  define: { __SHELL__: JSON.stringify(shell), __VERSION__: JSON.stringify(js.replace(/^app-|\.js$/g, "")) },
  logLevel: "warning",
});
console.log(`web/dist: ${js}, ${css}`);
