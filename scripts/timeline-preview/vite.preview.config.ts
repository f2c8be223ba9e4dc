import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
export default defineConfig({
  root: new URL('../..', import.meta.url).pathname,
  base: './',
  plugins: [react()],
  optimizeDeps: { exclude: ['@electric-sql/pglite'] },
  build: {
    target: 'es2022',
    outDir: process.env.PREVIEW_OUT ?? '/tmp/timeline-preview-dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 5000,
    rollupOptions: { input: new URL('./preview.html', import.meta.url).pathname },
  },
});
