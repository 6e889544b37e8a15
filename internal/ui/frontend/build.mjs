// Builds Trove's web UI into ../dist, the folder the Go binary embeds
// (internal/ui/embed.go). The output is deterministic: the same sources and
// the same package-lock.json give the same bytes, which CI checks
// (scripts/ui-build --check).
//
//   dist/index.html              names the hashed bundles
//   dist/assets/app-HASH.js|css  the app (preact, uPlot and our code)
//   dist/vendor/                 plotly.js, loaded only by pages with plots
//   dist/licenses/               the licence of every library we ship

import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// TROVE_UI_OUT builds elsewhere: scripts/ui-build --check builds into a
// temporary folder and compares, so the committed dist/ is never half
// written while go test compiles the package that embeds it.
const out = process.env.TROVE_UI_OUT ? path.resolve(process.env.TROVE_UI_OUT) : path.join(here, '..', 'dist');
const nm = path.join(here, 'node_modules');

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(path.join(out, 'vendor'), { recursive: true });
fs.mkdirSync(path.join(out, 'licenses'), { recursive: true });

const result = await esbuild.build({
  entryPoints: { app: path.join(here, 'src', 'main.jsx') },
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  entryNames: '[name]-[hash]',
  outdir: path.join(out, 'assets'),
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
  loader: { '.svg': 'text' },
});

const built = Object.keys(result.metafile.outputs).map(p => path.relative(out, path.resolve(p)).split(path.sep).join('/'));
const js = built.find(p => p.endsWith('.js'));
const css = built.find(p => p.endsWith('.css'));

// plotly.js's "strict" bundle: its WebGL traces (parcoords, scattergl) use
// precompiled shader code instead of new Function(), so the UI runs under a
// Content-Security-Policy without 'unsafe-eval' (internal/webapp). The
// package ships it unminified; esbuild minifies it here. plotly keeps its
// version in its name: the UI asks for that exact file.
const plotlyPkg = path.join(nm, 'plotly.js-strict-dist');
const plotlyVersion = JSON.parse(fs.readFileSync(path.join(plotlyPkg, 'package.json'), 'utf8')).version;
const plotlyMin = await esbuild.transform(fs.readFileSync(path.join(plotlyPkg, 'plotly-strict.js'), 'utf8'), {
  minify: true, target: 'es2017', legalComments: 'none', logLevel: 'error',
});
fs.writeFileSync(path.join(out, 'vendor', `plotly-strict-${plotlyVersion}.min.js`), plotlyMin.code);

for (const [pkg, file] of [['preact', 'LICENSE'], ['uplot', 'LICENSE'], ['plotly.js-strict-dist', 'LICENSE']]) {
  fs.copyFileSync(path.join(nm, pkg, file), path.join(out, 'licenses', `${pkg}.LICENSE.txt`));
}

const page = fs.readFileSync(path.join(here, 'src', 'index.html'), 'utf8')
  .replace('%APP_JS%', '/' + js)
  .replace('%APP_CSS%', '/' + css)
  .replace('%PLOTLY_JS%', `/vendor/plotly-strict-${plotlyVersion}.min.js`);
fs.writeFileSync(path.join(out, 'index.html'), page);
fs.copyFileSync(path.join(here, 'src', 'favicon.svg'), path.join(out, 'favicon.svg'));
console.log(`built ${js}, ${css}, vendor/plotly-strict-${plotlyVersion}.min.js`);
