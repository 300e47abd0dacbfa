import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Served by the gateway under /dashboard/; everything is bundled (no CDN), so the page works offline.
export default defineConfig({
  base: '/dashboard/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 2000 },
});
