/**
 * The CLI built ahead of time (out/cli), as electron-vite builds the app's
 * main process: `npm run analyze` then starts plain JavaScript instead of
 * transpiling the TypeScript at every start (about a second). Dependencies
 * stay in node_modules (ssr build: every package is external). The PDF
 * and OCR workers are entries of their own: extractorPool.ts starts
 * `new URL('./rawExtractor.mjs', import.meta.url)` and ocr/render.ts
 * `new URL('./pageRenderer.mjs', import.meta.url)`, so each must sit next to
 * analyze.mjs under exactly that name, and so must the chunks (the engine is
 * a chunk of its own: analyze.mjs loads it after its first line).
 * scripts/analyze.mjs rebuilds this when a source is newer than the build.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  logLevel: 'warn',
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'out/cli',
    emptyOutDir: true,
    minify: false,
    rollupOptions: {
      input: {
        analyze: resolve(import.meta.dirname, 'electron/cli/analyze.ts'),
        rawExtractor: resolve(import.meta.dirname, 'electron/engine/pdf/rawExtractor.mjs'),
        pageRenderer: resolve(import.meta.dirname, 'electron/engine/ocr/pageRenderer.mjs'),
      },
      output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
    },
  },
});
