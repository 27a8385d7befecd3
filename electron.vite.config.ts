import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // The engine host runs in a utility process: its own entry (out/main/host.js).
      // The PDF worker is an entry of its own: pageSource.ts starts it as `new URL('./rawExtractor.mjs', import.meta.url)`,
      // so it must exist under exactly that name next to host.js (a test checks every such URL in the build).
      lib: {
        entry: {
          index: resolve(import.meta.dirname, 'electron/main/index.ts'),
          host: resolve(import.meta.dirname, 'electron/host/utilityEntry.ts'),
          rawExtractor: resolve(import.meta.dirname, 'electron/engine/pdf/rawExtractor.mjs'),
          // The OCR page renderer, started by ocr/render.ts as `new URL('./pageRenderer.mjs', import.meta.url)`.
          pageRenderer: resolve(import.meta.dirname, 'electron/engine/ocr/pageRenderer.mjs'),
        },
      },
      rollupOptions: {
        // Native and worker-loading packages stay in node_modules: bundling breaks their file lookups.
        external: ['better-sqlite3', 'pdfjs-dist', 'electron', 'ws', 'tesseract.js', '@napi-rs/canvas'],
        output: { entryFileNames: (chunk) => (chunk.name === 'rawExtractor' || chunk.name === 'pageRenderer' ? '[name].mjs' : '[name].js') },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      lib: { entry: resolve(import.meta.dirname, 'electron/preload/index.ts') },
      // A sandboxed preload must be CommonJS.
      rollupOptions: { output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: 'renderer',
    plugins: [react()],
    build: { outDir: 'out/renderer', rollupOptions: { input: resolve(import.meta.dirname, 'renderer/index.html') } },
  },
});
